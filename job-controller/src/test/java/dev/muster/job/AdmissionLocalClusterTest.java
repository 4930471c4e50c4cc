package dev.muster.job;

import dev.muster.job.decision.JobStatusDecider;
import dev.muster.gang.JobAdmissionRule;
import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.batch.v1alpha1.LifecyclePolicy;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.support.Stillness;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.muster.api.batch.v1alpha1.JobPhase.Aborted;
import static dev.muster.api.batch.v1alpha1.JobPhase.Pending;
import static dev.muster.api.batch.v1alpha1.JobPhase.Running;
import static dev.muster.api.batch.v1alpha1.JobPhase.Terminated;
import static dev.muster.job.Patience.PATIENCE;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A controller gated by scheduler {@code muster}: a job gets its PodGroup at once and its pods once the
 * PodGroup is admitted. No PodGroup controller runs here, so the test writes PodGroup status as it would.
 */
@Tag("emulator")
class AdmissionLocalClusterTest extends LocalClusterTestBase {
    /** Long enough for the reconciles that the PodGroup's status change and the job's status write wake. */
    private static final Duration NO_PODS_WINDOW = Duration.ofSeconds(2);
    private static final String GPU_FULL = "0/1 nodes are available: 1 Insufficient nvidia.com/gpu.";

    /** Hides {@link LocalClusterTestBase#start()}: gated, but the test plays the scheduler's part. */
    @BeforeAll
    static void start() {
        startWith(JobAdmissionRule.ON, false);
    }

    /** Writes the PodGroup's status through the status subresource, as the PodGroup controller does. */
    private static void writePodGroupStatus(String name, String statusJson) {
        client.resources(PodGroup.class).withName(name).subresource("status")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":" + statusJson + "}");
    }

    private static List<Event> podGroupPendingEvents(String job) {
        return events(job).stream().filter(e -> JobReconciler.POD_GROUP_PENDING.equals(e.getReason())).toList();
    }

    private static String message(String job) {
        JobStatus status = status(job);
        return status == null || status.getState() == null ? null : status.getState().getMessage();
    }

    @Test
    void podsWaitForThePodGroupToBeAdmitted() {
        create(newJob("queued", null, runFor("60", task("worker", 2, null))));
        // The control: a twin whose PodGroup is admitted while the other's is not.
        create(newJob("queued-twin", null, runFor("60", task("worker", 2, null))));

        await().atMost(PATIENCE).until(() -> podGroup("queued"), Optional::isPresent);
        await().atMost(PATIENCE).until(() -> podGroup("queued-twin"), Optional::isPresent);
        await().atMost(PATIENCE).until(() -> message("queued"), "waiting for scheduler muster to admit PodGroup queued"::equals);

        writePodGroupStatus("queued", "{\"phase\":\"Pending\",\"conditions\":[{\"type\":\"Unschedulable\","
                + "\"status\":\"True\",\"reason\":\"NotEnoughResources\",\"message\":\"" + GPU_FULL + "\"}]}");
        await().atMost(PATIENCE).until(() -> message("queued"),
                ("waiting for scheduler muster to admit PodGroup queued: " + GPU_FULL)::equals);
        // As Volcano's job controller does, the job itself carries a Warning saying why its gang waits.
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(podGroupPendingEvents("queued")).singleElement()
                .satisfies(e -> {
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getMessage()).isEqualTo("PodGroup queued is unschedulable: " + GPU_FULL);
                }));
        String resourceVersion = job("queued").getMetadata().getResourceVersion();
        writePodGroupStatus("queued-twin", "{\"phase\":\"Inqueue\",\"conditions\":[]}");
        Stillness.holds(PATIENCE, "the admitted twin got its pods", () -> pods("queued-twin").size() == 2,
                NO_PODS_WINDOW, () -> {
                    assertThat(pods("queued")).isEmpty();
                    assertThat(job("queued").getMetadata().getResourceVersion()).isEqualTo(resourceVersion);
                });
        assertThat(status("queued").getState().getPhase()).isEqualTo(Pending);
        assertThat(status("queued").getState().getReason()).isEqualTo(JobStatusDecider.CREATED);
        assertThat(podGroupPendingEvents("queued")).as("told once, not again while the reason stays")
                .singleElement().satisfies(e -> assertThat(e.getCount()).isIn(null, 1));
        assertThat(podGroupPendingEvents("queued-twin")).isEmpty();

        writePodGroupStatus("queued", "{\"phase\":\"Inqueue\",\"conditions\":[]}");

        await().atMost(PATIENCE).until(() -> podNames("queued"), List.of("queued-worker-0", "queued-worker-1")::equals);
        await().atMost(PATIENCE).until(() -> message("queued"),
                "PodGroup queued admitted by scheduler muster; waiting for 2 of 2 pods to start (minAvailable 2)"::equals);
        JobStatus running = bindUntil("queued", in(Running));
        assertThat(running.getState().getMessage()).isEqualTo("2/2 pods running or finished, minAvailable 2");
    }

    /**
     * Volcano creates every pod of an elastic job and lets its scheduler bind what fits; so does Muster once
     * the gang of any minAvailable pods is admitted. Its PodGroup carries no task minimum.
     */
    @Test
    void anAdmittedElasticJobCreatesAllItsPodsAndItsGroupHasNoTaskMinimum() {
        Job job = newJob("elastic", null, runFor("60", task("worker", 6, null)));
        job.getSpec().setMinAvailable(3);
        create(job);
        await().atMost(PATIENCE).until(() -> podGroup("elastic"), Optional::isPresent);
        assertThat(podGroup("elastic")).hasValueSatisfying(group -> {
            assertThat(group.getSpec().getMinMember()).isEqualTo(3);
            assertThat(group.getSpec().getMinTaskMember()).isEqualTo(Map.of("worker", 0));
        });

        writePodGroupStatus("elastic", "{\"phase\":\"Inqueue\",\"conditions\":[]}");

        await().atMost(PATIENCE).until(() -> pods("elastic").size() == 6);
        await().atMost(PATIENCE).until(() -> message("elastic"),
                "PodGroup elastic admitted by scheduler muster; waiting for 3 of 6 pods to start (minAvailable 3)"::equals);
    }

    @Test
    void aPodPendingTimeoutCountsTheTimeTheJobWaitsForAdmission() {
        Job job = newJob("impatient", null, task("worker", 2, null));
        LifecyclePolicy giveUp = new LifecyclePolicy();
        giveUp.setEvent("PodPending");
        giveUp.setTimeout("2s");
        giveUp.setAction("AbortJob");
        job.getSpec().setPolicies(List.of(giveUp));
        create(job);
        await().atMost(PATIENCE).until(() -> podGroup("impatient"), Optional::isPresent);
        writePodGroupStatus("impatient", "{\"phase\":\"Pending\",\"conditions\":[{\"type\":\"Unschedulable\","
                + "\"status\":\"True\",\"reason\":\"NotEnoughResources\",\"message\":\"" + GPU_FULL + "\"}]}");

        JobStatus aborted = await().atMost(PATIENCE).until(() -> status("impatient"), in(Aborted));

        assertThat(aborted.getState().getReason()).isEqualTo("PodPending");
        assertThat(aborted.getState().getMessage()).isEqualTo("task worker: 2 pods not created yet, waiting for "
                + "scheduler muster to admit PodGroup impatient: 0/1 nodes are available: 1 Insufficient nvidia.com/gpu; "
                + "action AbortJob; no pod is active any more");
        assertThat(pods("impatient")).isEmpty();
    }

    /**
     * Here, where no PodGroup controller runs, the test writes the phase as it would; beside a running one, which
     * writes an Unknown gang whose pods all run back to Running at once, the Job controller could miss it.
     */
    @Test
    void podGroupGoingUnknownTriggersItsPolicy() {
        Job job = newJob("partial", null, runFor("60", task("worker", 2, null)));
        LifecyclePolicy terminate = new LifecyclePolicy();
        terminate.setEvent("Unknown");
        terminate.setAction("TerminateJob");
        job.getSpec().setPolicies(List.of(terminate));
        create(job);
        await().atMost(PATIENCE).until(() -> podGroup("partial"), Optional::isPresent);
        writePodGroupStatus("partial", "{\"phase\":\"Inqueue\",\"conditions\":[]}");
        bindUntil("partial", in(Running));

        writePodGroupStatus("partial", "{\"phase\":\"Unknown\"}");

        JobStatus status = await().atMost(PATIENCE).until(() -> status("partial"), in(Terminated));
        assertThat(status.getState().getReason()).isEqualTo("Unknown");
        await().atMost(PATIENCE).until(() -> pods("partial").isEmpty());
    }

    @Test
    void admissionOfAPodGroupAUserMadeForTheJobWakesTheJob() {
        PodGroup userMade = new PodGroup();
        userMade.getMetadata().setName("adopted");
        userMade.getSpec().setMinMember(1);
        client.resource(userMade).create();
        create(newJob("adopted", null, task("worker", 1, null)));
        await().atMost(PATIENCE).until(() -> message("adopted"), "waiting for scheduler muster to admit PodGroup adopted"::equals);

        writePodGroupStatus("adopted", "{\"phase\":\"Inqueue\"}");

        await().atMost(PATIENCE).until(() -> podNames("adopted"), List.of("adopted-worker-0")::equals);
    }

    @Test
    void jobOfAnotherSchedulerGetsItsPodsAtOnce() {
        Job job = newJob("elsewhere", null, task("worker", 2, null));
        job.getSpec().setSchedulerName("default-scheduler");
        create(job);

        await().atMost(PATIENCE).until(() -> pods("elsewhere").size() == 2);
        assertThat(podGroup("elsewhere")).as("created all the same, and no one admitted it")
                .hasValueSatisfying(group -> assertThat(group.getStatus() == null ? null : group.getStatus().getPhase()).isNull());
        assertThat(pods("elsewhere")).allSatisfy(pod -> assertThat(pod.getSpec().getSchedulerName())
                .isEqualTo("default-scheduler"));
        // Issue 24: a job whose pods are for another scheduler says so while they wait.
        await().atMost(PATIENCE).until(() -> message("elsewhere"), ("waiting for 2 of 2 pods to start (minAvailable 2); "
                + "its pods are for scheduler 'default-scheduler', not Muster's ('muster'), which neither admits nor "
                + "binds them")::equals);
    }
}
