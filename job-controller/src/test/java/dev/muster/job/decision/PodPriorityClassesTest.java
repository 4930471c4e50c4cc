package dev.muster.job.decision;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static dev.muster.job.TestJobs.job;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;

class PodPriorityClassesTest {

    @Test
    void aTemplatesOwnClassWinsOverTheJobsAndEachMissingOneIsNamedWithItsFieldOnce() {
        TaskSpec evaluator = task("evaluator", 1, null);
        evaluator.getTemplate().getSpec().setPriorityClassName("eval");
        Job job = job("train", task("master", 1, null), task("worker", 4, null), evaluator);
        job.getSpec().setPriorityClassName("train");

        assertThat(PodPriorityClasses.named(job)).containsExactly("train", "eval");
        assertThat(PodPriorityClasses.missing(job, name -> false)).containsExactly(
                "PriorityClass train (spec.priorityClassName)",
                "PriorityClass eval (spec.tasks[2].template.spec.priorityClassName)");
        assertThat(PodPriorityClasses.missing(job, Set.of("train")::contains))
                .containsExactly("PriorityClass eval (spec.tasks[2].template.spec.priorityClassName)");
        assertThat(PodPriorityClasses.missing(job, Set.of("train", "eval")::contains)).isEmpty();
    }

    @Test
    void aJobWhosePodsNameNoClassWaitsForNone() {
        Job job = job("plain", task("worker", 2, null));

        assertThat(PodPriorityClasses.named(job)).isEmpty();
        assertThat(PodPriorityClasses.missing(job, name -> false)).isEmpty();
    }

    @Test
    void aJobsClassThatEveryTemplateOverridesIsNotWaitedFor() {
        // The PodGroup carries it, but no pod does: the API server refuses no pod for it.
        TaskSpec worker = task("worker", 2, null);
        worker.getTemplate().getSpec().setPriorityClassName("own");
        Job job = job("overridden", worker);
        job.getSpec().setPriorityClassName("absent");

        assertThat(PodPriorityClasses.missing(job, Set.of("own")::contains)).isEmpty();
    }
}
