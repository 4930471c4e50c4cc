package dev.muster.job;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobCondition;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.support.Stillness;
import dev.muster.support.event.EventRecorder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.muster.api.batch.v1alpha1.JobPhase.Completed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Failed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Pending;
import static dev.muster.api.batch.v1alpha1.JobPhase.Running;
import static dev.muster.job.Patience.PATIENCE;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The walking skeleton's scenarios: gang creation, completion, failure, minSuccess, PodGroup updates, invalid specs. */
@Tag("emulator")
class JobControllerLocalClusterTest extends LocalClusterTestBase {

    @Test
    void gangJobGetsItsPodGroupAndPodsAndCompletes() {
        create(newJob("quickstart", 4, runFor("1", task("master", 1, null)), runFor("1", task("worker", 3, null))));

        PodGroup group = await().atMost(PATIENCE).until(() -> podGroup("quickstart"), Optional::isPresent).get();
        assertThat(group.getSpec().getMinMember()).isEqualTo(4);
        assertThat(group.getSpec().getMinTaskMember()).isEqualTo(Map.of("master", 1, "worker", 3));
        assertThat(group.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(owner -> assertThat(owner.getName()).isEqualTo("quickstart"));

        List<Pod> pods = await().atMost(PATIENCE).until(() -> pods("quickstart"), p -> p.size() == 4);
        assertThat(pods).extracting(p -> p.getMetadata().getName()).containsExactlyInAnyOrder(
                "quickstart-master-0", "quickstart-worker-0", "quickstart-worker-1", "quickstart-worker-2");
        Pod worker = pods.stream().filter(p -> p.getMetadata().getName().equals("quickstart-worker-2")).findFirst().orElseThrow();
        assertThat(worker.getMetadata().getLabels()).containsAllEntriesOf(Map.of(
                MusterLabels.JOB_NAME, "quickstart", MusterLabels.TASK_NAME, "worker",
                MusterLabels.TASK_INDEX, "2", MusterLabels.POD_GROUP, "quickstart"));
        assertThat(worker.getMetadata().getAnnotations()).containsEntry(MusterLabels.JOB_VERSION, "0");
        assertThat(worker.getSpec().getSchedulerName()).isEqualTo("muster");

        bindUnboundPods("quickstart");

        JobStatus status = await().atMost(PATIENCE).until(() -> status("quickstart"), s -> phaseOf(s) == Completed);
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
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(eventReasons("quickstart"))
                .contains("Created", "MinAvailableReached", "TasksSucceeded"));

        String resourceVersion = job("quickstart").getMetadata().getResourceVersion();
        // The control: a twin that has yet to finish, whose status the controller writes up to Completed meanwhile.
        create(newJob("quickstart-twin", 1, runFor("1", task("worker", 1, null))));
        Stillness.holds(PATIENCE, "the twin's status written up to Completed", () -> {
            bindUnboundPods("quickstart-twin");
            return phaseOf(status("quickstart-twin")) == Completed;
        }, Duration.ofMillis(800), () -> assertThat(job("quickstart").getMetadata().getResourceVersion())
                .isEqualTo(resourceVersion));
    }

    @Test
    void workerExitingNonZeroFailsTheJobNamingTheTask() {
        create(newJob("train", null, runFor("1", task("master", 1, null)), runFor("2", task("worker", 3, 3))));
        await().atMost(PATIENCE).until(() -> pods("train").size() == 4);
        failPodWith("train-worker-1", 1);

        bindUnboundPods("train");

        JobStatus status = await().atMost(PATIENCE).until(() -> status("train"), s -> phaseOf(s) == Failed);
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
        await().atMost(PATIENCE).until(() -> pods("sweep").size() == 2);

        bindUnboundPods("sweep");

        JobStatus status = await().atMost(PATIENCE).until(() -> status("sweep"), s -> phaseOf(s) == Completed);
        assertThat(status.getState().getReason()).isEqualTo("MinSuccessReached");
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(pods("sweep"))
                .extracting(p -> p.getMetadata().getName()).containsExactly("sweep-fast-0"));
    }

    @Test
    void podGroupFollowsTheJobMinimumWithoutLosingFieldsSetByOthers() {
        create(newJob("elastic", null, task("worker", 3, null)));
        await().atMost(PATIENCE).until(() -> podGroup("elastic").map(g -> g.getSpec().getMinMember()), m -> m.equals(Optional.of(3)));
        // The scheduler writes the group's status meanwhile, so a conflict is retried.
        await().atMost(PATIENCE).ignoreException(KubernetesClientException.class).until(() -> client
                .resources(PodGroup.class).withName("elastic")
                .edit(group -> { group.getSpec().setScheduleTimeoutSeconds(30); return group; }) != null);

        editSpec("elastic", job -> job.getSpec().setMinAvailable(2));

        PodGroup group = await().atMost(PATIENCE).until(() -> podGroup("elastic").orElseThrow(), g -> g.getSpec().getMinMember() == 2);
        assertThat(group.getSpec().getScheduleTimeoutSeconds()).isEqualTo(30);
        await().atMost(PATIENCE).until(() -> status("elastic").getMinAvailable(), m -> m == 2);
    }

    @Test
    void aJobWhosePodsNameAPriorityClassThatDoesNotExistWaitsForItAndRunsOnceItIsMade() {
        // The API server's Priority admission would refuse every pod: no PriorityClass with name ... was found.
        TaskSpec evaluator = runFor("1", task("evaluator", 1, null));
        evaluator.getTemplate().getSpec().setPriorityClassName("missing-eval");
        Job job = newJob("unclassed", null, runFor("1", task("worker", 1, null)), evaluator);
        job.getSpec().setPriorityClassName("missing-train");
        create(job);

        JobStatus waiting = await().atMost(PATIENCE).until(() -> status("unclassed"), s -> s != null
                && s.getState().getMessage() != null && s.getState().getMessage().contains("PriorityClass"));
        assertThat(phaseOf(waiting)).isEqualTo(Pending);
        assertThat(waiting.getState().getMessage()).isEqualTo("waiting for PriorityClass missing-train "
                + "(spec.priorityClassName), PriorityClass missing-eval (spec.tasks[1].template.spec.priorityClassName) "
                + "to exist");
        assertThat(podGroup("unclassed")).as("no gang is proposed for pods the API server would refuse").isEmpty();

        for (String name : List.of("missing-train", "missing-eval")) {
            client.resource(new PriorityClassBuilder().withNewMetadata().withName(name).endMetadata().withValue(10)
                    .build()).create();
        }

        bindUntil("unclassed", in(Completed));
        assertThat(eventReasons("unclassed")).doesNotContain("FailedCreatePod");
    }

    @Test
    void aLiveJobsPriorityClassMayChangeAndItsPodGroupFollows() {
        // As Volcano: its webhook (admit_job.go validateJobUpdate) lets priorityClassName change on a live job,
        // and its controller (shouldUpdateExistingPodGroup) carries the change to the PodGroup.
        client.resource(new PriorityClassBuilder().withNewMetadata().withName("reprioritised-high").endMetadata()
                .withValue(1000).build()).createOr(existing -> existing.update());
        create(newJob("reprioritised", null, runFor("600", task("worker", 2, null))));
        bindUntil("reprioritised", in(Running));
        long generation = job("reprioritised").getMetadata().getGeneration();

        editSpec("reprioritised", job -> job.getSpec().setPriorityClassName("reprioritised-high"));

        PodGroup group = await().atMost(PATIENCE).until(() -> podGroup("reprioritised").orElseThrow(),
                g -> "reprioritised-high".equals(g.getSpec().getPriorityClassName()));
        assertThat(group.getSpec().getMinMember()).isEqualTo(2);
        JobStatus status = await().atMost(PATIENCE).until(() -> status("reprioritised"),
                s -> s.getAcceptedGeneration() != null && s.getAcceptedGeneration() > generation);
        assertThat(phaseOf(status)).isEqualTo(Running);
        // Its long-running pods would otherwise share the one node with the next tests' gangs.
        client.resource(job("reprioritised")).delete();
        await().atMost(PATIENCE).until(() -> pods("reprioritised").isEmpty());
    }

    @Test
    void invalidJobFailsWithTheFieldPathAndGetsNoPods() {
        createPastAdmission(newJob("broken", null, task("worker", 2, 3)));

        JobStatus status = await().atMost(PATIENCE).until(() -> status("broken"), s -> phaseOf(s) == Failed);
        assertThat(status.getState().getReason()).isEqualTo("InvalidSpec");
        assertThat(status.getState().getMessage()).isEqualTo("spec.tasks[0].minAvailable: must not exceed replicas (2), was 3");
        assertThat(pods("broken")).isEmpty();
        assertThat(podGroup("broken")).isEmpty();
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(eventReasons("broken")).contains("InvalidSpec"));
    }

    @Test
    void deletingAPodSaysWhetherItWasStillThere() {
        Pod pod = client.resource(new PodBuilder().withNewMetadata().withName("loose").endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("busybox").endContainer().endSpec()
                .build()).create();
        JobResourceWriter writer = new JobResourceWriter(client, new EventRecorder(client, JobController.NAME), Runnable::run);

        assertThat(writer.deletePod(pod)).isTrue();
        await().atMost(PATIENCE).until(() -> client.pods().withName("loose").get() == null);
        assertThat(writer.deletePod(pod)).isFalse();
    }
}
