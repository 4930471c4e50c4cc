package dev.muster.job.lifecycle;

import java.util.Optional;

/**
 * What the lifecycle's guards test, computed once per decision. The facts are exclusive where guards of
 * one phase compete, because Spring StateMachine gives no order among transitions that share a source
 * and an event: a fatal fact hides the started, completion and preempted facts, the completion rule concludes
 * success or failure, never both, a concluded completion hides a preemption, and whether retries are left
 * decides between restarting and failing.
 *
 * @param fatal               set when the job cannot go on: invalid spec, a crash loop no policy handles, or
 *                            a run longer than {@code spec.maxRuntime}
 * @param minAvailableReached set when enough pods have started for the gang to count as running
 * @param completion          set when the completion rule has concluded
 * @param trigger             why the action being fired is taken (a policy or {@code spec.suspend})
 * @param retries             the retry budget
 * @param podsStopped         set when no pod of the job is active any more (for Aborting, Terminating, Completing)
 * @param podsReplaced        set when every pod a restart deleted is gone (for Restarting)
 * @param preempted           set when the scheduler preempted the whole running gang: no pod runs but as
 *                            its victim (for Running)
 */
public record JobFacts(Optional<Verdict> fatal, Optional<Verdict> minAvailableReached,
                       Optional<Completion> completion, Optional<Trigger> trigger, Retries retries,
                       Optional<Verdict> podsStopped, Optional<Verdict> podsReplaced, Optional<Verdict> preempted) {

    public static final String INVALID_SPEC = "InvalidSpec";
    public static final String MIN_AVAILABLE_REACHED = "MinAvailableReached";
    public static final String RETRY_LIMIT_REACHED = "RetryLimitReached";
    /** A Running job's run lasted longer than its {@code spec.maxRuntime}; it fails. */
    public static final String MAX_RUNTIME_EXCEEDED = "MaxRuntimeExceeded";

    /** No facts at all. */
    public static final JobFacts NONE = new JobFacts(Optional.empty(), Optional.empty(), Optional.empty(),
            Optional.empty(), Retries.NONE_USED, Optional.empty(), Optional.empty(), Optional.empty());

    public JobFacts {
        if (fatal.isPresent()) {
            minAvailableReached = Optional.empty();
            completion = Optional.empty();
            preempted = Optional.empty();
        }
        if (completion.isPresent()) {
            preempted = Optional.empty();
        }
    }

    /** Why the job completed, if the completion rule says it did. */
    public Optional<Verdict> succeeded() {
        return completion.filter(Completion::succeeded).map(Completion::verdict);
    }

    /** Why the job failed, if it cannot go on or the completion rule says so. */
    public Optional<Verdict> failed() {
        return fatal.or(() -> completion.filter(c -> !c.succeeded()).map(Completion::verdict));
    }

    /** The trigger's verdict, naming the action taken. */
    public Optional<Verdict> triggered() {
        return trigger.map(t -> new Verdict(t.verdict().reason(), clause(t.verdict()) + "; action " + t.action()));
    }

    /** The trigger's verdict with the retry it takes, if one is left. */
    public Optional<Verdict> restartable() {
        return trigger.filter(t -> retries.left()).map(t -> new Verdict(t.verdict().reason(), clause(t.verdict())
                + "; action " + t.action() + ", retry " + (retries.used() + 1) + "/" + retries.max()));
    }

    /** Why a restart is refused, if no retry is left. */
    public Optional<Verdict> retryLimitReached() {
        return trigger.filter(t -> !retries.left()).map(t -> new Verdict(RETRY_LIMIT_REACHED, t.verdict().reason()
                + ": " + clause(t.verdict()) + "; action " + t.action() + " refused, "
                + retries.used() + "/" + retries.max() + " retries used"));
    }

    /**
     * A verdict's message as the first clause of a longer one: a closing full stop (the scheduler's reasons end
     * with one) would read "minMember 2.; action AbortJob".
     */
    private static String clause(Verdict verdict) {
        String message = verdict.message();
        return message.endsWith(".") ? message.substring(0, message.length() - 1) : message;
    }
}
