package dev.muster.job;

import dev.muster.api.batch.v1alpha1.JobCondition;
import dev.muster.api.batch.v1alpha1.JobStatus;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static dev.muster.api.batch.v1alpha1.JobPhase.Completed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Pending;
import static dev.muster.api.batch.v1alpha1.JobPhase.Running;
import static dev.muster.job.Patience.PATIENCE;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Job and PodGroup controllers stopped and started again work as before: indexes are not added twice,
 * and the Job controller's informers of plugin objects, which cannot be restarted, are made anew.
 */
@Tag("emulator")
class ControllersRestartLocalClusterTest extends LocalClusterTestBase {

    @Test
    void controllersStoppedAndStartedAgainRunAJobToCompletion() {
        controller.stop();
        podGroups.stop();
        create(newJob("restarted", 2, runFor("1", task("worker", 2, null))));

        controller.start();
        podGroups.start();

        JobStatus status = await().atMost(PATIENCE).until(() -> status("restarted"), s -> phaseOf(s) == Completed);
        assertThat(status.getConditions()).extracting(JobCondition::getStatus).containsExactly(Pending, Running, Completed);
        await().atMost(PATIENCE).until(() -> controller.hasSynced() && controller.informersNotWatching().isEmpty());
    }
}
