package dev.muster.job;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobCondition;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.support.informer.SharedInformers;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.muster.api.batch.v1alpha1.JobPhase.Completed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Failed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Pending;
import static dev.muster.api.batch.v1alpha1.JobPhase.Running;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The Job controller against the embedded API emulator, through the real HTTP client; the test binds pods. */
class JobControllerLocalClusterTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(15);

    private static LocalCluster cluster;
    private static KubernetesClient client;
    private static SharedInformers informers;
    private static JobController controller;

    @BeforeAll
    static void start() {
        cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(1).withPodStartDelay(Duration.ofMillis(200)));
        client = cluster.client();
        informers = new SharedInformers(client);
        controller = new JobController(client, informers, JobController.DEFAULT_WORKERS, Clock.systemUTC());
        informers.start();
        controller.start();
    }

    @AfterAll
    static void stop() {
        controller.close();
        informers.close();
        cluster.close();
    }

    @Test
    void gangJobGetsItsPodGroupAndPodsAndCompletes() {
        create(newJob("quickstart", 4, runFor("1", task("master", 1, null)), runFor("1", task("worker", 3, null))));

        PodGroup group = await().atMost(TIMEOUT).until(() -> podGroup("quickstart"), Optional::isPresent).get();
        assertThat(group.getSpec().getMinMember()).isEqualTo(4);
        assertThat(group.getSpec().getMinTaskMember()).isEqualTo(Map.of("master", 1, "worker", 3));
        assertThat(group.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(owner -> assertThat(owner.getName()).isEqualTo("quickstart"));

        List<Pod> pods = await().atMost(TIMEOUT).until(() -> pods("quickstart"), p -> p.size() == 4);
        assertThat(pods).extracting(p -> p.getMetadata().getName()).containsExactlyInAnyOrder(
                "quickstart-master-0", "quickstart-worker-0", "quickstart-worker-1", "quickstart-worker-2");
        Pod worker = pods.stream().filter(p -> p.getMetadata().getName().equals("quickstart-worker-2")).findFirst().orElseThrow();
        assertThat(worker.getMetadata().getLabels()).containsAllEntriesOf(Map.of(
                MusterLabels.JOB_NAME, "quickstart", MusterLabels.TASK_NAME, "worker",
                MusterLabels.TASK_INDEX, "2", MusterLabels.POD_GROUP, "quickstart"));
        assertThat(worker.getMetadata().getAnnotations()).containsEntry(MusterLabels.JOB_VERSION, "0");
        assertThat(worker.getSpec().getSchedulerName()).isEqualTo("muster");
        await().atMost(TIMEOUT).until(() -> status("quickstart"), s -> phaseOf(s) == Pending);

        bindUnboundPods("quickstart");

        JobStatus status = await().atMost(TIMEOUT).until(() -> status("quickstart"), s -> phaseOf(s) == Completed);
        assertThat(status.getState().getReason()).isEqualTo("TasksSucceeded");
        assertThat(status.getState().getMessage()).isEqualTo("4/4 pods succeeded; every task reached its minAvailable");
        assertThat(status.getConditions()).extracting(JobCondition::getStatus).containsExactly(Pending, Running, Completed);
        assertThat(status.getTaskStatusCount()).hasSize(2);
        assertThat(status.getTaskStatusCount().get("master").getPhase()).isEqualTo(Map.of("Succeeded", 1));
        assertThat(status.getTaskStatusCount().get("worker").getPhase()).isEqualTo(Map.of("Succeeded", 3));
        assertThat(status.getSucceeded()).isEqualTo(4);
        assertThat(status.getMinAvailable()).isEqualTo(4);
        assertThat(status.getRunningDuration()).isNotNull();
        assertThat(pods("quickstart")).as("finished pods stay for their logs").hasSize(4);
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(eventReasons("quickstart"))
                .contains("Created", "MinAvailableReached", "TasksSucceeded"));

        String resourceVersion = job("quickstart").getMetadata().getResourceVersion();
        await().during(Duration.ofMillis(800)).atMost(Duration.ofSeconds(2))
                .until(() -> job("quickstart").getMetadata().getResourceVersion().equals(resourceVersion));
    }

    @Test
    void workerExitingNonZeroFailsTheJobNamingTheTask() {
        create(newJob("train", null, runFor("1", task("master", 1, null)), runFor("1", task("worker", 3, 3))));
        await().atMost(TIMEOUT).until(() -> pods("train").size() == 4);
        client.pods().withName("train-worker-1")
                .edit(pod -> { pod.getMetadata().getAnnotations().put(MusterLabels.LOCAL_EXIT_CODE, "1"); return pod; });

        bindUnboundPods("train");

        JobStatus status = await().atMost(TIMEOUT).until(() -> status("train"), s -> phaseOf(s) == Failed);
        assertThat(status.getState().getReason()).isEqualTo("TasksFailed");
        assertThat(status.getState().getMessage()).isEqualTo("task worker: 2/3 pods succeeded, minAvailable 3");
        assertThat(status.getFailed()).isEqualTo(1);
        assertThat(status.getConditions()).extracting(JobCondition::getStatus).containsExactly(Pending, Running, Failed);
    }

    @Test
    void minSuccessCompletesAtOnceAndStopsThePodsStillRunning() {
        Job job = newJob("sweep", null, runFor("0.3", task("fast", 1, null)), runFor("60", task("slow", 1, null)));
        job.getSpec().setMinSuccess(1);
        create(job);
        await().atMost(TIMEOUT).until(() -> pods("sweep").size() == 2);

        bindUnboundPods("sweep");

        JobStatus status = await().atMost(TIMEOUT).until(() -> status("sweep"), s -> phaseOf(s) == Completed);
        assertThat(status.getState().getReason()).isEqualTo("MinSuccessReached");
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(pods("sweep"))
                .extracting(p -> p.getMetadata().getName()).containsExactly("sweep-fast-0"));
    }

    @Test
    void podGroupFollowsTheJobMinimumWithoutLosingFieldsSetByOthers() {
        create(newJob("elastic", null, task("worker", 3, null)));
        await().atMost(TIMEOUT).until(() -> podGroup("elastic").map(g -> g.getSpec().getMinMember()), m -> m.equals(Optional.of(3)));
        client.resources(PodGroup.class).withName("elastic")
                .edit(group -> { group.getSpec().setScheduleTimeoutSeconds(30); return group; });

        client.resources(Job.class).withName("elastic").edit(job -> { job.getSpec().setMinAvailable(2); return job; });

        PodGroup group = await().atMost(TIMEOUT).until(() -> podGroup("elastic").orElseThrow(), g -> g.getSpec().getMinMember() == 2);
        assertThat(group.getSpec().getScheduleTimeoutSeconds()).isEqualTo(30);
        await().atMost(TIMEOUT).until(() -> status("elastic").getMinAvailable(), m -> m == 2);
    }

    @Test
    void invalidJobFailsWithTheFieldPathAndGetsNoPods() {
        create(newJob("broken", null, task("worker", 2, 3)));

        JobStatus status = await().atMost(TIMEOUT).until(() -> status("broken"), s -> phaseOf(s) == Failed);
        assertThat(status.getState().getReason()).isEqualTo("InvalidSpec");
        assertThat(status.getState().getMessage()).isEqualTo("spec.tasks[0].minAvailable: must not exceed replicas (2), was 3");
        assertThat(pods("broken")).isEmpty();
        assertThat(podGroup("broken")).isEmpty();
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(eventReasons("broken")).contains("InvalidSpec"));
    }

    /** A job to submit: the API server assigns the uid. */
    private static Job newJob(String name, Integer minAvailable, TaskSpec... tasks) {
        Job job = TestJobs.job(name, tasks);
        job.getMetadata().setUid(null);
        job.getSpec().setMinAvailable(minAvailable);
        return job;
    }

    private static TaskSpec runFor(String seconds, TaskSpec task) {
        task.getTemplate().getMetadata().getAnnotations().put(MusterLabels.LOCAL_RUN_SECONDS, seconds);
        return task;
    }

    private static void create(Job job) {
        client.resource(job).create();
    }

    private static Job job(String name) {
        return client.resources(Job.class).withName(name).get();
    }

    private static JobStatus status(String name) {
        return job(name).getStatus();
    }

    private static JobPhase phaseOf(JobStatus status) {
        return status == null || status.getState() == null ? null : status.getState().getPhase();
    }

    private static Optional<PodGroup> podGroup(String name) {
        return Optional.ofNullable(client.resources(PodGroup.class).withName(name).get());
    }

    private static List<Pod> pods(String job) {
        return client.pods().withLabel(MusterLabels.JOB_NAME, job).list().getItems();
    }

    private static List<String> eventReasons(String involvedObject) {
        return client.v1().events().list().getItems().stream()
                .filter(e -> involvedObject.equals(e.getInvolvedObject().getName()))
                .map(Event::getReason)
                .toList();
    }

    /** Stands in for the gang scheduler: binds every unbound pod of the job to node-0. */
    private static void bindUnboundPods(String job) {
        for (Pod pod : pods(job)) {
            if (pod.getSpec().getNodeName() == null) {
                client.bindings().inNamespace(pod.getMetadata().getNamespace()).resource(new BindingBuilder()
                        .withNewMetadata().withName(pod.getMetadata().getName()).endMetadata()
                        .withNewTarget().withApiVersion("v1").withKind("Node").withName("node-0").endTarget()
                        .build()).create();
            }
        }
    }
}
