package dev.muster.scheduler;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobSpec;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.batch.v1alpha1.VolumeSpec;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.rendering.JobPodRenderer;
import dev.muster.gang.GangVerdict;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

import static dev.muster.scheduler.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * Admission on the local cluster over HTTP: a Muster Job's gang is admitted from its task templates
 * before its pods exist, node by node, against room not promised to gangs admitted before it. The Job
 * controller does not run here; the test creates the job's pods itself when it would.
 */
@Tag("emulator")
class GangAdmissionScenarioTest extends SchedulerScenario {
    private void startCluster(int nodes, int gpusEach) {
        cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(nodes).withNodeCpu("16")
                .withNodeMemory("64Gi").withNodeGpus(gpusEach).withDefaultRunTime(Duration.ofMinutes(10)));
        client = cluster.client();
    }

    @Test
    void aJobWhoseGangFitsOnlyBySumIsNotAdmitted() {
        startCluster(3, 4);
        // 12 GPUs free in total for 12 requested, but no node has the 6 one pod needs.
        createJobAndPodGroup("llm", 2, 6);

        startScheduler(UnaryOperator.identity());

        await().atMost(PATIENCE).until(() -> verdict("llm").isPresent());
        assertThat(verdict("llm")).hasValueSatisfying(v -> {
            assertThat(v.outcome()).isEqualTo(GangVerdict.Outcome.UNSCHEDULABLE);
            assertThat(v.reason()).isEqualTo("NotEnoughResources");
            assertThat(v.message()).startsWith("0/3 nodes are available: 3 Insufficient nvidia.com/gpu.");
        });
    }

    @Test
    void aJobIsAdmittedBeforeItsPodsExistAndPlacedOnceTheyDo() {
        startCluster(3, 8);
        Job job = createJobAndPodGroup("llm", 2, 6);

        startScheduler(UnaryOperator.identity());

        await().atMost(PATIENCE).until(() -> outcome("llm").filter(GangVerdict.Outcome.ADMITTED::equals).isPresent());
        assertThat(verdict("llm")).hasValueSatisfying(v -> assertThat(v.reason()).isEqualTo("Admitted"));

        createPods(job);

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(bound("llm")).hasSize(2));
        assertThat(outcome("llm")).contains(GangVerdict.Outcome.SCHEDULED);
    }

    /**
     * Volcano: a 3-of-6 job (minMember 3, minTaskMember 6, as Volcano's job controller writes it) is
     * elastic, so its gang is any 3 pods: admitted with room for 3, it gets 3 bound and the rest wait.
     */
    @Test
    void anElasticJobIsAdmittedForItsMinMemberAndBindsWhatFits() {
        startCluster(3, 8);
        Job job = client.resources(Job.class).inNamespace(NS).resource(job("elastic", 6, 8)).create();
        createPodGroup(job, 3, 6);

        startScheduler(UnaryOperator.identity());

        await().atMost(PATIENCE).until(() -> outcome("elastic").filter(GangVerdict.Outcome.ADMITTED::equals).isPresent());
        createPods(job);

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(bound("elastic")).hasSize(3));
        assertThat(outcome("elastic")).contains(GangVerdict.Outcome.SCHEDULED);
        staysSo("elastic", () -> assertThat(bound("elastic")).hasSize(3));
    }

    @Test
    void roomPromisedToAnAdmittedJobIsNotGivenToAnotherUntilTheAdmissionTimesOut() {
        startCluster(2, 8);
        createJobAndPodGroup("first", 2, 8);
        startScheduler(config -> config.withAdmissionTimeout(Duration.ofSeconds(3)));
        await().atMost(PATIENCE).until(() -> outcome("first").filter(GangVerdict.Outcome.ADMITTED::equals).isPresent());

        createJobAndPodGroup("second", 1, 8);
        await().atMost(PATIENCE).until(() -> verdict("second").isPresent());
        assertThat(outcome("second")).contains(GangVerdict.Outcome.UNSCHEDULABLE);
        assertThat(outcome("first")).contains(GangVerdict.Outcome.ADMITTED);
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(scheduler.queue())
                .extracting(QueuedGang::name, QueuedGang::position, QueuedGang::state)
                .containsExactly(tuple("first", 1, "Admitted"), tuple("second", 2, "NotEnoughResources")));
        assertThat(scheduler.queue().get(1).message()).startsWith("0/2 nodes are available: 2 Insufficient nvidia.com/gpu.");

        // Nobody creates the first job's pods: its admission runs out and the room goes to the second.
        await().atMost(PATIENCE).until(() -> outcome("second").filter(GangVerdict.Outcome.ADMITTED::equals).isPresent());
        assertThat(verdict("first")).hasValueSatisfying(v -> {
            assertThat(v.outcome()).isEqualTo(GangVerdict.Outcome.UNSCHEDULABLE);
            assertThat(v.message()).contains("not placed within the admission timeout of 3s");
        });
    }

    @Test
    void suspendingAnAdmittedJobWithdrawsItsAdmission() {
        startCluster(1, 8);
        createJobAndPodGroup("paused", 1, 8);
        startScheduler(UnaryOperator.identity());
        await().atMost(PATIENCE).until(() -> outcome("paused").filter(GangVerdict.Outcome.ADMITTED::equals).isPresent());

        client.resources(Job.class).inNamespace(NS).withName("paused").edit(job -> {
            job.getSpec().setSuspend(true);
            return job;
        });

        await().atMost(PATIENCE).until(() -> verdict("paused").filter(v -> "NotEnoughTasks".equals(v.reason()))
                .isPresent());
        assertThat(verdict("paused")).hasValueSatisfying(v -> assertThat(v.message()).contains("No longer waits"));
    }

    @Test
    void aJobOfAnotherSchedulerIsNeverAdmitted() {
        startCluster(1, 8);
        Job job = job("elsewhere", 1, 1);
        job.getSpec().setSchedulerName("default-scheduler");
        Job created = client.resources(Job.class).inNamespace(NS).resource(job).create();
        createPodGroup(created, 1);
        // The control: the same job for this scheduler, which it admits.
        createJobAndPodGroup("ours", 1, 1);

        startScheduler(UnaryOperator.identity());

        staysSo("ours", () -> assertThat(verdict("elsewhere")).isEmpty());
        assertThat(outcome("ours")).contains(GangVerdict.Outcome.ADMITTED);
    }

    @Test
    void admissionPlacesThePodsWithTheVolumesTheJobsPluginsAdd() {
        startCluster(1, 8);
        // The claim's volume lives in a zone no node is in. The template mounts nothing: spec.volumes makes
        // every pod mount the claim (the volumes plugin), so admission must see it, as the pods will have it.
        client.persistentVolumes().resource(new PersistentVolumeBuilder().withNewMetadata().withName("pv-b").endMetadata()
                .withNewSpec().addToCapacity("storage", new Quantity("1Gi")).addToAccessModes("ReadWriteOnce")
                .withNewHostPath().withPath("/data/pv-b").endHostPath()
                .withNewNodeAffinity().withNewRequired().addNewNodeSelectorTerm().addNewMatchExpression()
                .withKey("topology.kubernetes.io/zone").withOperator("In").withValues("b").endMatchExpression()
                .endNodeSelectorTerm().endRequired().endNodeAffinity().endSpec().build()).create();
        client.persistentVolumeClaims().inNamespace(NS).resource(new PersistentVolumeClaimBuilder().withNewMetadata()
                .withName("data").endMetadata().withNewSpec().withStorageClassName("").withVolumeName("pv-b")
                .addToAccessModes("ReadWriteOnce").withNewResources().addToRequests("storage", new Quantity("1Gi"))
                .endResources().endSpec().build()).create();
        Job job = job("reader", 1, 1);
        VolumeSpec volume = new VolumeSpec();
        volume.setMountPath("/data");
        volume.setVolumeClaimName("data");
        job.getSpec().setVolumes(List.of(volume));
        createPodGroup(client.resources(Job.class).inNamespace(NS).resource(job).create(), 1);

        startScheduler(UnaryOperator.identity());

        await().atMost(PATIENCE).until(() -> verdict("reader").isPresent());
        assertThat(verdict("reader")).hasValueSatisfying(v -> {
            assertThat(v.outcome()).isEqualTo(GangVerdict.Outcome.UNSCHEDULABLE);
            assertThat(v.message()).contains("volume node affinity conflict");
        });
    }

    private Job createJobAndPodGroup(String name, int replicas, int gpus) {
        Job created = client.resources(Job.class).inNamespace(NS).resource(job(name, replicas, gpus)).create();
        createPodGroup(created, replicas);
        return created;
    }

    private void createPodGroup(Job owner, int minMember) {
        createPodGroup(owner, minMember, minMember);
    }

    private void createPodGroup(Job owner, int minMember, int workerMinimum) {
        PodGroup podGroup = new PodGroup();
        podGroup.setMetadata(new ObjectMetaBuilder().withName(owner.getMetadata().getName()).withNamespace(NS)
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(HasMetadata.getApiVersion(Job.class))
                        .withKind(HasMetadata.getKind(Job.class)).withName(owner.getMetadata().getName())
                        .withUid(owner.getMetadata().getUid()).withController(true).build())
                .build());
        podGroup.getSpec().setMinMember(minMember);
        podGroup.getSpec().setMinTaskMember(Map.of("worker", workerMinimum));
        client.resources(PodGroup.class).inNamespace(NS).resource(podGroup).create();
    }

    private static Job job(String name, int replicas, int gpus) {
        TaskSpec task = new TaskSpec();
        task.setName("worker");
        task.setReplicas(replicas);
        PodTemplateSpec template = new PodTemplateSpec();
        template.setSpec(podSpec(gpus));
        task.setTemplate(template);
        JobSpec spec = new JobSpec();
        spec.setTasks(List.of(task));
        Job job = new Job();
        job.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).build());
        job.setSpec(spec);
        return job;
    }

    private static PodSpec podSpec(int gpus) {
        return new PodSpecBuilder().addNewContainer().withName("main").withImage("trainer")
                .withNewResources().addToRequests("cpu", new Quantity("1"))
                .addToRequests("nvidia.com/gpu", new Quantity(Integer.toString(gpus)))
                .addToLimits("nvidia.com/gpu", new Quantity(Integer.toString(gpus)))
                .endResources().endContainer().build();
    }

    /** The pods the Job controller would create: it creates them from the same rendering. */
    private void createPods(Job job) {
        JobPodRenderer.pods(job, 0).forEach(pod -> client.pods().inNamespace(NS).resource(pod).create());
    }

    private Optional<GangVerdict.Outcome> outcome(String podGroup) {
        return verdict(podGroup).map(GangVerdict::outcome);
    }
}
