package dev.muster.job.decision;

import dev.muster.job.TestJobs;
import dev.muster.job.lifecycle.JobFacts;
import dev.muster.job.lifecycle.JobLifecycle;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** crd's bad-input corpus through the controller: every case fails the job with InvalidSpec and every message. */
class InvalidSpecCorpusTest {
    private final JobStatusDecider decider = new JobStatusDecider(new JobLifecycle());

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.muster.api.batch.v1alpha1.JobValidationCorpusTest#corpus")
    void badInputFailsTheJobWithInvalidSpecAndEveryMessage(String name, Job job, List<String> admission, List<String> controller) {
        job.getMetadata().setNamespace(TestJobs.NAMESPACE);
        job.getMetadata().setUid("uid-" + name.hashCode());

        JobDecision decision = decider.decide(job, List.of(), Instant.parse("2026-01-01T10:00:00Z"));

        assertThat(decision.phase()).isEqualTo(JobPhase.Failed);
        assertThat(decision.status().getState().getReason()).isEqualTo(JobFacts.INVALID_SPEC);
        assertThat(decision.status().getState().getMessage().split("; (?=spec)")).containsExactlyInAnyOrderElementsOf(controller);
        assertThat(decision.runsPods()).isFalse();
    }
}
