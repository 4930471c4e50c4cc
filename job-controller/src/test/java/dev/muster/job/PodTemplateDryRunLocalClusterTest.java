package dev.muster.job;

import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.job.lifecycle.JobFacts;
import dev.muster.local.server.ApiRequests;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Event;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static dev.muster.api.batch.v1alpha1.JobPhase.Completed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Failed;
import static dev.muster.job.Patience.PATIENCE;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * A task template from which the API server would make no pod fails its job with {@code InvalidSpec} before the
 * job has a PodGroup, so that no gang is admitted and holds room for pods that could never be created: the Job
 * controller asks the API server in a dry run (here the local cluster, which validates pods and refuses unknown
 * fields under strict field validation as kube-apiserver does).
 */
@Tag("emulator")
class PodTemplateDryRunLocalClusterTest extends LocalClusterTestBase {
    /** Dry-run pod creations so far, whichever client sent them (the controller here uses the cluster's own). */
    private static long dryRunPods() {
        return cluster.apiRequests().count(new ApiRequests.Kind(ApiRequests.COMPONENTS, "create", "pods (dry run)"))
                + cluster.apiRequests().count(new ApiRequests.Kind(ApiRequests.LOCAL_CLUSTER, "create", "pods (dry run)"));
    }

    private static JobStatus failed(String name) {
        return await().atMost(PATIENCE).until(() -> status(name), in(Failed));
    }

    @Test
    void aTemplateWhosePodsTheApiServerRefusesFailsTheJobBeforeItHasAPodGroup() {
        TaskSpec worker = task("worker", 2, null);
        worker.getTemplate().getSpec().getContainers().get(0).setImage(null);
        create(newJob("no-image", 2, worker));

        JobStatus status = failed("no-image");

        assertThat(status.getState().getReason()).isEqualTo(JobFacts.INVALID_SPEC);
        assertThat(status.getState().getMessage()).isEqualTo("spec.tasks[0].template: the API server refused pod "
                + "no-image-worker-0 in a dry run; spec.tasks[0].template.spec.containers[0].image: Required value");
        assertThat(podGroup("no-image")).isEmpty();
        assertThat(pods("no-image")).isEmpty();
    }

    @Test
    void aMisspeltFieldInATemplateFailsTheJobNamingTheField() {
        TaskSpec worker = task("worker", 1, null);
        worker.getTemplate().getSpec().getContainers().get(0)
                .setAdditionalProperty("resorces", Map.of("requests", Map.of("cpu", "1")));
        create(newJob("misspelt", 1, worker));

        JobStatus status = failed("misspelt");

        assertThat(status.getState().getMessage()).isEqualTo("spec.tasks[0].template: the API server refused pod "
                + "misspelt-worker-0 in a dry run; spec.tasks[0].template.spec.containers[0].resorces: unknown field");
        assertThat(podGroup("misspelt")).isEmpty();
    }

    @Test
    void theApiServersWarningsAboutATemplatesPodsAreWarningEventsOnTheJobWhichRuns() {
        TaskSpec worker = runFor("1", task("worker", 1, null));
        worker.getTemplate().getSpec().getContainers().get(0).setEnv(List.of(new EnvVar("STEPS", "10", null),
                new EnvVar("STEPS", "20", null)));
        create(newJob("warned", 1, worker));

        bindUntil("warned", in(Completed));

        assertThat(events("warned")).filteredOn(e -> PodTemplateDryRun.WARNING_REASON.equals(e.getReason()))
                .extracting(Event::getType, Event::getMessage, Event::getCount)
                .containsExactly(tuple("Warning", "spec.tasks[0].template: spec.containers[0].env[1]: hides previous "
                        + "definition of \"STEPS\", which may be dropped when using apply", 1));
    }

    @Test
    void jobsMadeFromATemplateAlreadyJudgedAskNoMore() {
        create(newJob("judged-0", 1, runFor("1", task("shared", 1, null))));
        bindUntil("judged-0", in(Completed));
        long asked = dryRunPods();

        IntStream.rangeClosed(1, 5).forEach(i -> create(newJob("judged-" + i, 1, runFor("1", task("shared", 1, null)))));

        IntStream.rangeClosed(1, 5).forEach(i -> bindUntil("judged-" + i, in(Completed)));
        assertThat(asked).isPositive();
        assertThat(dryRunPods()).isEqualTo(asked);
    }
}
