package dev.muster.job;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.validation.FieldError;
import dev.muster.api.batch.v1alpha1.validation.JobValidator;

import java.util.List;
import java.util.Optional;

/**
 * What the lifecycle's guards test, computed once per decision from the job and its pod counts. The
 * facts are exclusive where guards of one phase compete, because Spring StateMachine gives no order
 * among transitions that share a source and an event: an invalid spec hides every other fact, and the
 * completion rule concludes success or failure, never both.
 *
 * @param invalidSpec         set when the spec cannot run, with every problem by field path
 * @param minAvailableReached set when enough pods have started for the gang to count as running
 * @param completion          set when the completion rule has concluded
 */
public record JobFacts(Optional<Verdict> invalidSpec, Optional<Verdict> minAvailableReached,
                       Optional<Completion> completion) {

    public static final String INVALID_SPEC = "InvalidSpec";
    public static final String MIN_AVAILABLE_REACHED = "MinAvailableReached";

    /** The facts about a job with these pod counts. */
    public static JobFacts of(Job job, PodCounts counts) {
        List<FieldError> errors = JobValidator.validate(job);
        if (!errors.isEmpty()) {
            return new JobFacts(Optional.of(new Verdict(INVALID_SPEC, JobValidator.describe(errors))),
                    Optional.empty(), Optional.empty());
        }
        int minAvailable = JobDefaults.minAvailable(job.getSpec());
        Optional<Verdict> started = counts.started() >= minAvailable
                ? Optional.of(new Verdict(MIN_AVAILABLE_REACHED, counts.started() + "/"
                + JobDefaults.totalReplicas(job.getSpec()) + " pods running or finished, minAvailable " + minAvailable))
                : Optional.empty();
        return new JobFacts(Optional.empty(), started, CompletionRule.judge(job.getSpec(), counts));
    }

    /** Why the job completed, if the completion rule says it did. */
    public Optional<Verdict> succeeded() {
        return completion.filter(Completion::succeeded).map(Completion::verdict);
    }

    /** Why the job failed, if its spec is invalid or the completion rule says so. */
    public Optional<Verdict> failed() {
        return invalidSpec.or(() -> completion.filter(c -> !c.succeeded()).map(Completion::verdict));
    }
}
