package dev.muster.rendering;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.batch.v1alpha1.VolumeSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static dev.muster.api.batch.v1alpha1.JobFixtures.job;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one rendering of a job's pods. Where Muster follows Volcano, each test names the Volcano source it
 * follows (volcano-sh/volcano, read at commit ed72c7c8).
 */
class JobPodRendererTest {

    private static TaskSpec task(String name, int replicas) {
        TaskSpec task = new TaskSpec();
        task.setName(name);
        task.setReplicas(replicas);
        task.setTemplate(new PodTemplateSpecBuilder().withNewSpec().addNewContainer().withName("main")
                .withImage("busybox").endContainer().withRestartPolicy("Never").endSpec().build());
        return task;
    }

    private static Map<String, Pod> byName(Job job) {
        return JobPodRenderer.pods(job, 0).stream()
                .collect(Collectors.toMap(p -> p.getMetadata().getName(), Function.identity()));
    }

    private static Map<String, String> env(Pod pod) {
        return pod.getSpec().getContainers().get(0).getEnv().stream()
                .collect(Collectors.toMap(e -> e.getName(), e -> e.getValue()));
    }

    @Test
    void rendersEveryPodOfEveryTaskWithThePluginsEditsAndLeavesTheJobAsItWas() {
        Job job = job("ns", "train", task("master", 1), task("worker", 2));
        job.getSpec().setPlugins(Map.of("pytorch", List.of()));
        VolumeSpec volume = new VolumeSpec();
        volume.setMountPath("/data");
        volume.setVolumeClaimName("datasets");
        job.getSpec().setVolumes(List.of(volume));
        String before = Serialization.asJson(job);

        List<Pod> pods = JobPodRenderer.pods(job, 2);

        assertThat(pods).extracting(p -> p.getMetadata().getName())
                .containsExactly("train-master-0", "train-worker-0", "train-worker-1");
        Pod worker1 = pods.get(2);
        assertThat(worker1.getMetadata().getLabels()).containsEntry(MusterLabels.TASK_INDEX, "1")
                .containsEntry(MusterLabels.POD_GROUP, "train");
        assertThat(worker1.getMetadata().getAnnotations()).containsEntry(MusterLabels.JOB_VERSION, "2");
        assertThat(env(worker1)).containsEntry("RANK", "2").containsEntry("MASTER_ADDR", "train-master-0.train");
        assertThat(worker1.getSpec().getContainers().get(0).getPorts()).extracting(p -> p.getContainerPort())
                .containsExactly(23456);
        assertThat(worker1.getSpec().getVolumes()).filteredOn(v -> v.getPersistentVolumeClaim() != null)
                .extracting(v -> v.getPersistentVolumeClaim().getClaimName()).containsExactly("datasets");
        assertThat(Serialization.asJson(job)).isEqualTo(before);
        assertThat(JobPodRenderer.pods(job, 2, pod -> pod.task().getName().equals("worker") && pod.index() == 0))
                .extracting(p -> p.getMetadata().getName()).containsExactly("train-worker-0");
    }

    @Test
    void podsCarryVolcanosLabelsAndAnnotationsAsItsCreateJobPodSetsThemUnlessTurnedOff() {
        // pkg/controllers/job/job_controller_util.go createJobPod: labels task-index, job-name, task-spec,
        // job-namespace, queue-name; annotations task-index, task-spec, job-name, queue-name (over the template's).
        Job job = job("ns", "train", task("master", 1), task("worker", 2));
        job.getSpec().getTasks().get(1).getTemplate().setMetadata(new ObjectMetaBuilder()
                .withLabels(Map.of("volcano.sh/task-spec", "stale", "app", "mine")).build());
        job.getSpec().setQueue("research");

        Pod worker1 = byName(job).get("train-worker-1");

        assertThat(worker1.getMetadata().getLabels()).containsAllEntriesOf(Map.of("volcano.sh/job-name", "train",
                "volcano.sh/task-spec", "worker", "volcano.sh/task-index", "1", "volcano.sh/job-namespace", "ns",
                "volcano.sh/queue-name", "research", "app", "mine", MusterLabels.TASK_NAME, "worker"));
        assertThat(worker1.getMetadata().getAnnotations()).containsAllEntriesOf(Map.of("volcano.sh/job-name", "train",
                "volcano.sh/task-spec", "worker", "volcano.sh/task-index", "1", "volcano.sh/queue-name", "research"))
                .doesNotContainKey("volcano.sh/job-namespace");
        job.getSpec().setQueue(null);
        assertThat(byName(job).get("train-master-0").getMetadata().getLabels())
                .containsEntry("volcano.sh/queue-name", "default");

        Pod plain = JobPodRenderer.pods(job, 0, false).get(1);
        assertThat(plain.getMetadata().getLabels()).containsOnlyKeys(MusterLabels.JOB_NAME, MusterLabels.TASK_NAME,
                MusterLabels.TASK_INDEX, MusterLabels.POD_GROUP, "app", "volcano.sh/task-spec");
        assertThat(plain.getMetadata().getLabels()).containsEntry("volcano.sh/task-spec", "stale");
        assertThat(plain.getMetadata().getAnnotations()).containsOnlyKeys(MusterLabels.JOB_VERSION);
    }

    @Test
    void aTemplatesSchedulerNameIsKeptAndTheJobsIsTheDefaultForTheOthers() {
        // Volcano pkg/controllers/job/job_controller_util.go createJobPod: "If no scheduler name in Pod, use
        // scheduler name from Job."
        TaskSpec own = task("own", 1);
        own.getTemplate().getSpec().setSchedulerName("default-scheduler");
        Job job = job("ns", "mixed", own, task("plain", 1));
        job.getSpec().setSchedulerName("volcano");

        Map<String, Pod> pods = byName(job);

        assertThat(pods.get("mixed-own-0").getSpec().getSchedulerName()).isEqualTo("default-scheduler");
        assertThat(pods.get("mixed-plain-0").getSpec().getSchedulerName()).isEqualTo("volcano");
        job.getSpec().setSchedulerName(null);
        assertThat(byName(job).get("mixed-plain-0").getSpec().getSchedulerName()).isEqualTo(MusterLabels.SCHEDULER_NAME);
        assertThat(JobPodRenderer.schedulerName(job, own)).isEqualTo("default-scheduler");
    }

    @Test
    void theJobsPriorityClassReachesEveryPodWhoseTemplateNamesNone() {
        // Volcano job_controller_util.go createJobPod: "If no priority class specified in pod template, use
        // priority class specified in job".
        TaskSpec own = task("own", 1);
        own.getTemplate().getSpec().setPriorityClassName("urgent");
        Job job = job("ns", "prio", own, task("plain", 2));

        assertThat(byName(job).get("prio-plain-1").getSpec().getPriorityClassName()).isNull();

        job.getSpec().setPriorityClassName("batch-high");
        Map<String, Pod> pods = byName(job);

        assertThat(pods.get("prio-own-0").getSpec().getPriorityClassName()).isEqualTo("urgent");
        assertThat(pods.get("prio-plain-0").getSpec().getPriorityClassName()).isEqualTo("batch-high");
        assertThat(pods.get("prio-plain-1").getSpec().getPriorityClassName()).isEqualTo("batch-high");
    }

    @Test
    void aTemplateThatSetsNoRestartPolicyMakesPodsThatRestartOnlyOnFailure() {
        TaskSpec unset = task("unset", 1);
        unset.getTemplate().getSpec().setRestartPolicy(null);
        TaskSpec always = task("service", 1);
        always.getTemplate().getSpec().setRestartPolicy("Always");
        Map<String, Pod> pods = byName(job("ns", "rp", unset, always, task("once", 1)));

        assertThat(pods.get("rp-unset-0").getSpec().getRestartPolicy()).isEqualTo("OnFailure");
        assertThat(pods.get("rp-service-0").getSpec().getRestartPolicy()).isEqualTo("Always");
        assertThat(pods.get("rp-once-0").getSpec().getRestartPolicy()).isEqualTo("Never");
    }

    @Test
    void svcKeepsATemplatesHostnameAndSubdomainAndListsTheHostsByThem() {
        // Volcano pkg/controllers/job/plugins/svc/svc.go: OnPodCreate sets hostname and subdomain only when the
        // pod has none; GenerateHosts names a task's hosts <hostname>.<subdomain>, from the template when it sets
        // them, and lists a task whose template sets the hostname once (all its pods share it).
        TaskSpec head = task("head", 2);
        head.getTemplate().getSpec().setHostname("head");
        head.getTemplate().getSpec().setSubdomain("ray");
        TaskSpec worker = task("worker", 2);
        worker.getTemplate().getSpec().setSubdomain("ray");
        Job job = job("ns", "cluster", head, worker, task("plain", 1));
        job.getSpec().setPlugins(Map.of("svc", List.of()));

        Map<String, Pod> pods = byName(job);

        assertThat(pods.get("cluster-head-0").getSpec().getHostname()).isEqualTo("head");
        assertThat(pods.get("cluster-head-0").getSpec().getSubdomain()).isEqualTo("ray");
        assertThat(pods.get("cluster-worker-1").getSpec().getHostname()).isEqualTo("cluster-worker-1");
        assertThat(pods.get("cluster-worker-1").getSpec().getSubdomain()).isEqualTo("ray");
        assertThat(pods.get("cluster-plain-0").getSpec().getHostname()).isEqualTo("cluster-plain-0");
        assertThat(pods.get("cluster-plain-0").getSpec().getSubdomain()).isEqualTo("cluster");
        assertThat(env(pods.get("cluster-plain-0"))).containsEntry("MUSTER_HEAD_HOSTS", "head.ray")
                .containsEntry("MUSTER_WORKER_HOSTS", "cluster-worker-0.ray,cluster-worker-1.ray")
                .containsEntry("VC_PLAIN_HOSTS", "cluster-plain-0.cluster")
                // Both head pods answer to one name, counted once, as Volcano counts the hosts it lists.
                .containsEntry("MUSTER_HEAD_NUM", "1").containsEntry("VC_HEAD_NUM", "1")
                .containsEntry("VC_WORKER_NUM", "2");
    }

    @Test
    void aJobThePluginsRefuseHasErrorsAndOneThatIsValidHasNone() {
        Job job = job("ns", "bad", task("worker", 1));
        assertThat(JobPodRenderer.errors(job)).isEmpty();

        job.getSpec().setPlugins(Map.of("pytorch", List.of("--port=http")));

        assertThat(JobPodRenderer.errors(job)).extracting(e -> e.path()).contains("spec.plugins.pytorch");
    }
}
