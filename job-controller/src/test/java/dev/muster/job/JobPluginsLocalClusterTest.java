package dev.muster.job;

import dev.muster.api.batch.v1alpha1.JobOwnership;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.batch.v1alpha1.LifecyclePolicy;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import static dev.muster.api.batch.v1alpha1.JobPhase.Completed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Failed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Pending;
import static dev.muster.api.batch.v1alpha1.JobPhase.Running;
import static dev.muster.job.Patience.PATIENCE;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * Plugins on the local cluster, as in production: the objects they create, what the created pods carry,
 * that the Service and host lists exist before the first pod, that a restart keeps the ssh key, that a
 * deleted object comes back and that deleting the job removes them all.
 */
@Tag("emulator")
class JobPluginsLocalClusterTest extends LocalClusterTestBase {

    private static Job withPlugins(Job job, Map<String, List<String>> plugins) {
        job.getSpec().setPlugins(new LinkedHashMap<>(plugins));
        return job;
    }

    private static Pod pod(String name) {
        return client.pods().withName(name).get();
    }

    private static Map<String, String> env(Container container) {
        return container.getEnv().stream().collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));
    }

    private static <T extends HasMetadata> T get(Class<T> type, String name) {
        return client.resources(type).withName(name).get();
    }

    @Test
    void pytorchJobGetsItsServiceAndHostsBeforeAnyPodAndEveryRank() {
        List<String> missingAtFirstPod = new CopyOnWriteArrayList<>();
        List<String> seenPods = new CopyOnWriteArrayList<>();
        try (Watch ignored = client.pods().withLabel(MusterLabels.JOB_NAME, "ddp").watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                if (action == Action.ADDED && seenPods.isEmpty()) {
                    // Looked up when the first pod appears: both must already be there.
                    if (get(Service.class, "ddp") == null) {
                        missingAtFirstPod.add("Service/ddp");
                    }
                    if (get(ConfigMap.class, "ddp-svc") == null) {
                        missingAtFirstPod.add("ConfigMap/ddp-svc");
                    }
                }
                seenPods.add(pod.getMetadata().getName());
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        })) {
            create(withPlugins(newJob("ddp", null, runFor("2", task("master", 1, null)), runFor("2", task("worker", 3, null))),
                    Map.of("pytorch", List.of("--master=master", "--worker=worker", "--port=29500",
                            "--wait-master-enabled", "--wait-master-timeout=120"))));
            await().atMost(PATIENCE).until(() -> pods("ddp").size() == 4 && !seenPods.isEmpty());
        }
        assertThat(missingAtFirstPod).isEmpty();

        Pod worker = pod("ddp-worker-2");
        assertThat(worker.getSpec().getInitContainers()).singleElement().satisfies(init -> {
            assertThat(init.getName()).isEqualTo("wait-for-master");
            assertThat(init.getImage()).isEqualTo("busybox:1.36.1");
            assertThat(init.getCommand().get(2)).contains("ddp-master-0.ddp 29500", "+ 120 ))");
        });
        assertThat(pod("ddp-master-0").getSpec().getInitContainers()).isEmpty();
        assertThat(worker.getSpec().getHostname()).isEqualTo("ddp-worker-2");
        assertThat(worker.getSpec().getSubdomain()).isEqualTo("ddp");
        Container main = worker.getSpec().getContainers().get(0);
        assertThat(env(main)).isEqualTo(Map.ofEntries(
                Map.entry("MUSTER_MASTER_HOSTS", "ddp-master-0.ddp"),
                Map.entry("MUSTER_MASTER_NUM", "1"),
                Map.entry("VC_MASTER_HOSTS", "ddp-master-0.ddp"),
                Map.entry("VC_MASTER_NUM", "1"),
                Map.entry("MUSTER_WORKER_HOSTS", "ddp-worker-0.ddp,ddp-worker-1.ddp,ddp-worker-2.ddp"),
                Map.entry("MUSTER_WORKER_NUM", "3"),
                Map.entry("VC_WORKER_HOSTS", "ddp-worker-0.ddp,ddp-worker-1.ddp,ddp-worker-2.ddp"),
                Map.entry("VC_WORKER_NUM", "3"),
                Map.entry("MASTER_ADDR", "ddp-master-0.ddp"),
                Map.entry("MASTER_PORT", "29500"),
                Map.entry("WORLD_SIZE", "4"),
                Map.entry("RANK", "3")));
        assertThat(main.getVolumeMounts()).extracting(VolumeMount::getMountPath, VolumeMount::getName, VolumeMount::getReadOnly)
                .containsExactlyInAnyOrder(tuple("/etc/muster", "muster-svc", true),
                        tuple("/etc/volcano", "muster-svc", true));
        assertThat(main.getPorts()).extracting(p -> p.getContainerPort()).containsExactly(29500);
        assertThat(env(pod("ddp-master-0").getSpec().getContainers().get(0))).containsEntry("RANK", "0");
        assertThat(env(pod("ddp-worker-0").getSpec().getContainers().get(0))).containsEntry("RANK", "1");

        Service service = get(Service.class, "ddp");
        assertThat(service.getSpec().getClusterIP()).isEqualTo("None");
        assertThat(service.getSpec().getSelector()).isEqualTo(Map.of("batch.muster.dev/job-name", "ddp"));
        assertThat(get(ConfigMap.class, "ddp-svc").getData()).isEqualTo(Map.of(
                "master.host", "ddp-master-0.ddp", "worker.host", "ddp-worker-0.ddp\nddp-worker-1.ddp\nddp-worker-2.ddp",
                "VC_MASTER_HOSTS", "ddp-master-0.ddp", "VC_MASTER_NUM", "1",
                "VC_WORKER_HOSTS", "ddp-worker-0.ddp,ddp-worker-1.ddp,ddp-worker-2.ddp", "VC_WORKER_NUM", "3"));
        assertThat(get(NetworkPolicy.class, "ddp")).isNotNull();
        Job job = job("ddp");
        for (HasMetadata object : List.of(service, get(ConfigMap.class, "ddp-svc"), get(NetworkPolicy.class, "ddp"))) {
            assertThat(JobOwnership.isControlledBy(object, job)).as(object.getKind()).isTrue();
        }
        assertThat(status("ddp").getControlledResources()).isEqualTo(Map.of(
                "ConfigMap/ddp-svc", "svc", "NetworkPolicy/ddp", "svc", "Service/ddp", "svc"));

        await().atMost(PATIENCE).until(() -> status("ddp"), in(Completed));
    }

    @Test
    void rayClusterGetsItsHeadServiceBeforeItsPodsAndItsPodsVolcanosLabels() {
        TaskSpec head = runFor("1", task("head", 1, null));
        TaskSpec worker = runFor("1", task("worker", 2, null));
        head.getTemplate().getSpec().getContainers().get(0).setName("head");
        worker.getTemplate().getSpec().getContainers().get(0).setName("worker");
        create(withPlugins(newJob("raycl", null, head, worker), Map.of("ray", List.of())));
        await().atMost(PATIENCE).until(() -> pods("raycl").size() == 3);

        Service service = get(Service.class, "raycl-head-svc");
        assertThat(service.getSpec().getSelector()).isEqualTo(Map.of(
                MusterLabels.JOB_NAME, "raycl", MusterLabels.TASK_NAME, "head"));
        assertThat(service.getSpec().getPorts()).extracting(p -> p.getName(), p -> p.getPort())
                .containsExactly(tuple("gcs", 6379), tuple("dashboard", 8265), tuple("client-server", 10001));
        assertThat(JobOwnership.isControlledBy(service, job("raycl"))).isTrue();
        assertThat(status("raycl").getControlledResources()).containsEntry("Service/raycl-head-svc", "ray")
                .containsEntry("Service/raycl", "svc");
        assertThat(pod("raycl-head-0").getSpec().getContainers().get(0).getPorts()).extracting(p -> p.getContainerPort())
                .containsExactly(6379, 8265, 10001);
        Pod worker1 = pod("raycl-worker-1");
        assertThat(worker1.getSpec().getContainers().get(0).getCommand())
                .containsExactly("sh", "-c", "ray start --block --address=raycl-head-0.raycl:6379");
        // Volcano's labels and annotations (its createJobPod), on by default, so selectors written for Volcano work.
        assertThat(worker1.getMetadata().getLabels()).containsAllEntriesOf(Map.of("volcano.sh/job-name", "raycl",
                "volcano.sh/task-spec", "worker", "volcano.sh/task-index", "1", "volcano.sh/job-namespace", TestJobs.NAMESPACE,
                "volcano.sh/queue-name", "default"));
        assertThat(client.pods().withLabel("volcano.sh/task-spec", "worker").withLabel("volcano.sh/job-name", "raycl")
                .list().getItems()).hasSize(2);

        await().atMost(PATIENCE).until(() -> status("raycl"), in(Completed));
    }

    @Test
    void hostListsFollowAScaleUpAndADeletedObjectComesBack() {
        create(withPlugins(newJob("elastic", 1, runFor("30", task("worker", 2, 1))), Map.of("svc", List.of())));
        await().atMost(PATIENCE).until(() -> status("elastic"), in(Running));

        editSpec("elastic", job -> job.getSpec().getTasks().get(0).setReplicas(3));

        await().atMost(PATIENCE).until(() -> get(ConfigMap.class, "elastic-svc").getData().get("worker.host"),
                hosts -> hosts.equals("elastic-worker-0.elastic\nelastic-worker-1.elastic\nelastic-worker-2.elastic"));
        await().atMost(PATIENCE).until(() -> pod("elastic-worker-2") != null);
        assertThat(env(pod("elastic-worker-2").getSpec().getContainers().get(0))).containsEntry("MUSTER_WORKER_NUM", "3");

        String uid = get(Service.class, "elastic").getMetadata().getUid();
        client.resources(Service.class).withName("elastic").delete();
        await().atMost(PATIENCE).until(() -> get(Service.class, "elastic"),
                s -> s != null && !s.getMetadata().getUid().equals(uid));

        client.resources(Job.class).withName("elastic").delete();
    }

    @Test
    void mpiJobRestartKeepsItsSshKeyAndDeletingTheJobRemovesEveryObject() {
        Job job = withPlugins(newJob("allreduce", null, runFor("0.5", task("master", 1, null)),
                runFor("0.5", exitWith(3, task("worker", 2, null)))), Map.of("mpi", List.of("--master=master", "--worker=worker")));
        LifecyclePolicy restart = new LifecyclePolicy();
        restart.setExitCode(3);
        restart.setAction("RestartJob");
        job.getSpec().setPolicies(List.of(restart));
        job.getSpec().setMaxRetry(1);
        create(job);

        Secret first = await().atMost(PATIENCE).until(() -> get(Secret.class, "allreduce-ssh"), Objects::nonNull);
        Pod master = await().atMost(PATIENCE).until(() -> pod("allreduce-master-0"), Objects::nonNull);
        Container launcher = master.getSpec().getContainers().get(0);
        assertThat(env(launcher)).containsEntry("MPI_HOST", "allreduce-worker-0.allreduce,allreduce-worker-1.allreduce");
        assertThat(launcher.getVolumeMounts()).extracting(VolumeMount::getMountPath)
                .containsExactlyInAnyOrder("/etc/muster", "/etc/volcano", "/root/.ssh");
        assertThat(master.getSpec().getVolumes()).filteredOn(v -> v.getName().equals("muster-ssh")).singleElement()
                .satisfies(v -> {
                    assertThat(v.getSecret().getDefaultMode()).isEqualTo(0600);
                    assertThat(v.getSecret().getItems()).extracting(KeyToPath::getPath)
                            .containsExactly(".ssh/id_rsa", ".ssh/id_rsa.pub", ".ssh/authorized_keys", ".ssh/config");
                });
        // The API server kept the subPath: the directory of the items is mounted, not the volume's root.
        assertThat(launcher.getVolumeMounts()).filteredOn(m -> m.getMountPath().equals("/root/.ssh")).singleElement()
                .extracting(VolumeMount::getSubPath).isEqualTo(".ssh");
        assertThat(new String(Base64.getDecoder().decode(first.getData().get("config")), StandardCharsets.UTF_8))
                .startsWith("StrictHostKeyChecking no\nUserKnownHostsFile /dev/null\nHost allreduce-master-0 allreduce-master-0.allreduce\n");
        assertThat(get(ConfigMap.class, "allreduce-mpi").getData()).containsEntry("hostfile",
                "allreduce-worker-0.allreduce slots=1\nallreduce-worker-1.allreduce slots=1\n");

        JobStatus failed = await().atMost(PATIENCE).until(() -> status("allreduce"), in(Failed));
        assertThat(failed.getVersion()).as("restarted once").isEqualTo(1);
        Secret after = get(Secret.class, "allreduce-ssh");
        assertThat(after.getMetadata().getUid()).isEqualTo(first.getMetadata().getUid());
        assertThat(after.getData()).isEqualTo(first.getData());
        assertThat(failed.getControlledResources()).containsOnlyKeys("ConfigMap/allreduce-mpi", "ConfigMap/allreduce-svc",
                "NetworkPolicy/allreduce", "Secret/allreduce-ssh", "Service/allreduce");

        client.resources(Job.class).withName("allreduce").delete();
        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(get(Service.class, "allreduce")).isNull();
            assertThat(get(ConfigMap.class, "allreduce-svc")).isNull();
            assertThat(get(ConfigMap.class, "allreduce-mpi")).isNull();
            assertThat(get(Secret.class, "allreduce-ssh")).isNull();
            assertThat(get(NetworkPolicy.class, "allreduce")).isNull();
            assertThat(pods("allreduce")).isEmpty();
        });
    }

    @Test
    void tensorflowPodsGetTheirTfConfig() throws Exception {
        create(withPlugins(newJob("tfps", null, runFor("1", task("ps", 1, null)), runFor("1", task("worker", 2, null))),
                Map.of("tensorflow", List.of("--ps=ps", "--worker=worker"))));
        Pod worker = await().atMost(PATIENCE).until(() -> pod("tfps-worker-1"), Objects::nonNull);
        JsonNode config = new ObjectMapper().readTree(env(worker.getSpec().getContainers().get(0)).get("TF_CONFIG"));
        assertThat(config.path("cluster").path("worker")).extracting(n -> n.asText())
                .containsExactly("tfps-worker-0.tfps:2222", "tfps-worker-1.tfps:2222");
        assertThat(config.path("cluster").path("ps")).extracting(n -> n.asText()).containsExactly("tfps-ps-0.tfps:2222");
        assertThat(config.path("task").path("type").asText()).isEqualTo("worker");
        assertThat(config.path("task").path("index").asInt()).isEqualTo(1);
        await().atMost(PATIENCE).until(() -> status("tfps"), in(Completed));
    }

    @Test
    void aJobWaitsForTheClaimItNamesAndMakesTheOneItSpecifies() {
        // /data on existing claim "datasets", /scratch on a claim of 10Gi the job makes.
        create(JobPluginsTest.withVolumes(newJob("shared", null, runFor("1", task("worker", 2, null)))));

        JobStatus waiting = await().atMost(PATIENCE).until(() -> status("shared"), s -> s != null && s.getState().getMessage() != null
                && s.getState().getMessage().contains("datasets"));
        assertThat(phaseOf(waiting)).isEqualTo(Pending);
        assertThat(waiting.getState().getMessage())
                .isEqualTo("waiting for PersistentVolumeClaim datasets (spec.volumes[0].volumeClaimName) to exist");
        PersistentVolumeClaim scratch = await().atMost(PATIENCE).until(() -> get(PersistentVolumeClaim.class, "shared-volume-1"), Objects::nonNull);
        assertThat(JobOwnership.isControlledBy(scratch, job("shared"))).isTrue();
        assertThat(scratch.getSpec().getResources().getRequests()).containsEntry("storage", new Quantity("10Gi"));
        assertThat(pods("shared")).isEmpty();
        assertThat(podGroup("shared")).as("no gang is proposed for pods that cannot start").isEmpty();

        client.resource(new PersistentVolumeClaimBuilder().withNewMetadata().withName("datasets").endMetadata()
                .withNewSpec().withAccessModes("ReadOnlyMany").endSpec().build()).create();

        await().atMost(PATIENCE).until(() -> pods("shared").size() == 2);
        Container main = pod("shared-worker-1").getSpec().getContainers().get(0);
        assertThat(main.getVolumeMounts()).extracting(VolumeMount::getMountPath, VolumeMount::getName)
                .containsExactlyInAnyOrder(tuple("/data", "muster-volume-0"), tuple("/scratch", "muster-volume-1"));
        assertThat(pod("shared-worker-1").getSpec().getVolumes())
                .extracting(v -> v.getPersistentVolumeClaim().getClaimName()).containsExactly("datasets", "shared-volume-1");
        await().atMost(PATIENCE).until(() -> status("shared"), in(Completed));

        client.resources(Job.class).withName("shared").delete();
        await().atMost(PATIENCE).until(() -> get(PersistentVolumeClaim.class, "shared-volume-1") == null);
        assertThat(get(PersistentVolumeClaim.class, "datasets")).as("a claim the job did not make stays").isNotNull();
    }

    @Test
    void unknownPluginArgumentFailsTheJobNamingPluginAndArgument() {
        create(withPlugins(newJob("badarg", null, task("master", 1, null), task("worker", 1, null)),
                Map.of("pytorch", List.of("--master=chief", "--fooo=1"))));
        JobStatus status = await().atMost(PATIENCE).until(() -> status("badarg"), in(Failed));
        assertThat(status.getState().getReason()).isEqualTo("InvalidSpec");
        assertThat(status.getState().getMessage()).isEqualTo(
                "spec.plugins.pytorch: unknown argument --fooo; known: --master, --port, --wait-master-enabled, "
                        + "--wait-master-image, --wait-master-timeout, --worker; "
                        + "spec.plugins.pytorch: argument --master names task 'chief', which the job does not have; "
                        + "its tasks are master, worker");
        assertThat(pods("badarg")).isEmpty();
        assertThat(get(Service.class, "badarg")).isNull();
    }
}
