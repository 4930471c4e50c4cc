package dev.muster.job.decision;

import dev.muster.job.lifecycle.Completion;
import dev.muster.job.lifecycle.Effect;
import dev.muster.job.lifecycle.JobAction;
import dev.muster.job.lifecycle.JobFacts;
import dev.muster.job.lifecycle.JobLifecycle;
import dev.muster.job.lifecycle.PhaseTransition;
import dev.muster.job.lifecycle.Retries;
import dev.muster.job.lifecycle.Trigger;
import dev.muster.job.lifecycle.Verdict;
import dev.muster.api.KubeTime;
import dev.muster.api.MusterLabels;
import dev.muster.api.PodPreemption;
import dev.muster.api.batch.v1alpha1.GoDuration;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobCondition;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.JobSpec;
import dev.muster.api.batch.v1alpha1.JobState;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.batch.v1alpha1.validation.FieldError;
import dev.muster.api.batch.v1alpha1.validation.JobValidator;
import dev.muster.job.plugin.JobPlugins;
import dev.muster.rendering.JobPodRenderer;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The job controller's decision core: (job with its current status, the job's pods and PodGroup, the
 * pods the controller itself deleted, now) → the status the job should have, the phase change that
 * leads there and the pods to delete. It picks the one action of this decision (suspend and resume
 * first, then a policy's, else {@code SyncJob}) and lets {@link JobLifecycle} decide the transition.
 * Whether pods may be created is not its concern ({@link AdmissionGate}), but a Pending job's message says
 * how its admission stands.
 * Pure apart from reading the clock value it is given; never mutates its inputs, which usually come from
 * the informer cache. Thread-safe.
 */
public final class JobStatusDecider {
    /** Reason of the first status of a job that is valid but has not started. */
    public static final String CREATED = "Created";
    /** Reason of an abort caused by {@code spec.suspend: true}; a job aborted for it resumes when it is cleared. */
    public static final String SUSPENDED = "Suspended";
    public static final String RESUMED = "Resumed";
    public static final String RESTARTED = "Restarted";
    /** Phase history kept in {@code status.conditions}; a job that restarts often would otherwise grow without end. */
    static final int MAX_CONDITIONS = 20;

    private final JobLifecycle lifecycle;

    public JobStatusDecider(JobLifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    /** Decides for a job without a PodGroup yet and with no deletions of the controller's own pending. */
    public JobDecision decide(Job job, Collection<Pod> pods, Instant now) {
        return decide(job, pods, Optional.empty(), Set.of(), now);
    }

    /** Decides for a job whose pods do not wait for a scheduler's admission. */
    public JobDecision decide(Job job, Collection<Pod> pods, Optional<PodGroup> group, Set<String> deletedUids,
                              Instant now) {
        return decide(job, pods, group, deletedUids, Admission.NOT_GATED, now);
    }

    /** Decides for a job whose pods need nothing that is missing, and that its queue does not hold. */
    public JobDecision decide(Job job, Collection<Pod> pods, Optional<PodGroup> group, Set<String> deletedUids,
                              Admission admission, Instant now) {
        return decide(job, pods, group, deletedUids, admission, List.of(), Optional.empty(), List.of(), now);
    }

    /**
     * Decides the status of {@code job}.
     *
     * @param pods          the pods the job controls
     * @param group         the job's PodGroup, if it exists
     * @param deletedUids   uids of pods the controller deleted that may still show in {@code pods}
     * @param admission     how the job stands with the scheduler that admits gangs ({@link AdmissionGate});
     *                      a gated job in Pending says so in {@code status.state.message}
     * @param missing       what the job's pods need that does not exist, described: the claims it names in
     *                      {@code spec.volumes} ({@link dev.muster.job.plugin.VolumesPlugin#missingClaims}) and the
     *                      PriorityClasses they name ({@link PodPriorityClasses#missing}); its pods wait for them,
     *                      and a Pending job says so in {@code status.state.message}
     * @param queueHold     why the job's queue keeps it from starting ({@link QueueGate}), if it does: a Pending
     *                      job then has that reason and message, and its pods count as waiting like those of a
     *                      job waiting for admission
     * @param refusedFields the fields of the task templates the API server refuses in the pods made from them
     *                      ({@link PodTemplateVerdict}); a job with any fails with {@code InvalidSpec}, as one
     *                      with an invalid spec does
     * @param now           the time of the decision
     */
    public JobDecision decide(Job job, Collection<Pod> pods, Optional<PodGroup> group, Set<String> deletedUids,
                              Admission admission, List<String> missing, Optional<Verdict> queueHold,
                              List<FieldError> refusedFields, Instant now) {
        Observation seen = Observation.of(job.getSpec() == null ? withEmptySpec(job) : job, pods, deletedUids);
        Validation validation = validate(seen, refusedFields);
        PolicyOutcome policies = seen.live() && validation.valid()
                ? PolicyMatcher.match(seen.job(), PolicyEventObserver.observe(seen.job(), seen.pods().current(),
                        seen.counts(), group, admissionWait(seen, admission, queueHold, now)), now)
                : PolicyOutcome.NOTHING;
        Optional<Trigger> trigger = validation.valid()
                ? suspension(seen.job(), seen.phase(), seen.previousReason()).or(policies::trigger) : Optional.empty();
        Optional<Verdict> overrun = validation.valid() ? maxRuntimeExceeded(seen, now) : Optional.empty();
        Optional<PhaseTransition> transition = transition(seen, validation, policies, trigger, overrun);
        return plan(seen, validation, policies, trigger, transition, admission, missing, queueHold, now);
    }

    /**
     * What one decision looks at, worked out once: the job (with a spec), its status so far, whether it has
     * none yet (a new job, decided on for the first time), the phase and version that follow from that, and
     * its pods sorted and counted.
     *
     * @param current the status as read, which may be null or lack a state
     * @param fresh   whether the job has no phase yet: it is new, in Pending at version 0
     */
    private record Observation(Job job, JobStatus current, boolean fresh, JobPhase phase, int version, JobPods pods,
                               PodCounts counts) {
        static Observation of(Job job, Collection<Pod> pods, Set<String> deletedUids) {
            JobStatus current = job.getStatus();
            boolean fresh = current == null || current.getState() == null || current.getState().getPhase() == null;
            int version = fresh ? 0 : current.getVersion();
            JobPods sorted = JobPods.sort(pods, version, deletedUids);
            return new Observation(job, current, fresh, fresh ? JobPhase.Pending : current.getState().getPhase(),
                    version, sorted, TaskStatusCounter.count(sorted.current()).plusTerminating(sorted.departing()));
        }

        /** The status the job had, or null for a fresh job. */
        JobStatus previous() {
            return fresh ? null : current;
        }

        String previousReason() {
            return fresh ? null : current.getState().getReason();
        }

        int retriesUsed() {
            return fresh ? 0 : current.getRetryCount();
        }

        /** Whether policies apply: the job is Pending or Running. */
        boolean live() {
            return phase == JobPhase.Pending || phase == JobPhase.Running;
        }
    }

    /**
     * Whether the job may go on as specified.
     *
     * @param invalid  why not: the spec is invalid, or changed where a running job cannot follow
     * @param accepted the spec the job now runs with
     */
    private record Validation(Optional<Verdict> invalid, AcceptedSpec accepted) {
        boolean valid() {
            return invalid.isEmpty();
        }
    }

    private static Validation validate(Observation seen, List<FieldError> refusedFields) {
        Job job = seen.job();
        List<FieldError> errors = new ArrayList<>(JobPodRenderer.errors(job));
        errors.addAll(refusedFields);
        AcceptedSpec accepted = AcceptedSpec.check(job, seen.previous(), seen.phase());
        return new Validation(errors.isEmpty() ? accepted.refusal()
                : Optional.of(new Verdict(JobFacts.INVALID_SPEC, JobValidator.describe(errors))), accepted);
    }

    /** The lifecycle's transition for this decision's action; a fresh job that stays Pending is still Created. */
    private Optional<PhaseTransition> transition(Observation seen, Validation validation, PolicyOutcome policies,
                                                 Optional<Trigger> trigger, Optional<Verdict> overrun) {
        JobAction action = trigger.map(Trigger::action).orElse(JobAction.SyncJob);
        Retries retries = new Retries(seen.retriesUsed(), JobDefaults.maxRetry(seen.job().getSpec()));
        JobFacts facts = facts(seen.job(), seen.counts(), validation.invalid().or(policies::crashLoop).or(() -> overrun),
                trigger, retries, seen.current(), seen.version(), preempted(seen));
        Optional<PhaseTransition> transition = lifecycle.fire(seen.phase(), action, facts);
        if (transition.isEmpty() && seen.fresh()) {
            return Optional.of(new PhaseTransition(JobPhase.Pending, JobPhase.Pending, JobAction.SyncJob,
                    Effect.NONE, created(seen.job())));
        }
        return transition;
    }

    /** The status to write and what to do about the job's pods and the job itself. */
    private static JobDecision plan(Observation seen, Validation validation, PolicyOutcome policies,
                                    Optional<Trigger> trigger, Optional<PhaseTransition> transition, Admission admission,
                                    List<String> missing, Optional<Verdict> queueHold, Instant now) {
        Job job = seen.job();
        JobStatus next = nextStatus(job, seen.previous(), seen.counts(), transition, now);
        JobState state = next.getState();
        boolean pending = state.getPhase() == JobPhase.Pending;
        Optional<Verdict> hold = queueHold.filter(h -> pending);
        if (pending && hold.isEmpty() && QueueGate.isHold(state.getReason())) {
            // The queue now exists and is Open: the job waits as a new one does.
            state.setReason(CREATED);
            state.setMessage(created(job).message());
        }
        describeAdmission(state, job, admission);
        if (pending && !missing.isEmpty()) {
            state.setMessage("waiting for " + String.join(", ", missing) + " to exist");
        }
        hold.ifPresent(h -> {
            state.setReason(h.reason());
            state.setMessage(h.message());
        });
        next.setAcceptedSpec(validation.accepted().fingerprints());
        next.setAcceptedGeneration(validation.accepted().generation());
        if (validation.valid()) {
            Map<String, String> controlled = JobPlugins.BUILT_IN.controlledResources(job);
            next.setControlledResources(controlled.isEmpty() ? null : controlled);
        } else if (seen.current() != null) {
            next.setControlledResources(seen.current().getControlledResources());
        }
        List<Pod> delete = PodCleanup.plan(job, next.getState().getPhase(), transition, trigger, seen.pods());
        Optional<Instant> expiry = ttlExpiry(job, next);
        boolean expired = expiry.filter(e -> !now.isBefore(e)).isPresent();
        Optional<Instant> wakeAt = earliest(earliest(policies.wakeAt(), expiry.filter(e -> !expired)),
                runtimeDeadline(job, state).filter(now::isBefore));
        return new JobDecision(next, transition, delete,
                validation.valid() ? TaskGate.open(job.getSpec(), seen.counts()) : Set.of(), wakeAt, expired, hold);
    }

    /**
     * {@code spec.suspend} as in batch/v1: true aborts a live job; cleared, it resumes a job it aborted.
     * A job a policy aborted is not resumed by an unset {@code suspend}; suspending it marks it Suspended,
     * so that clearing {@code suspend} then resumes it.
     */
    private static Optional<Trigger> suspension(Job job, JobPhase phase, String reason) {
        boolean suspend = Boolean.TRUE.equals(job.getSpec().getSuspend());
        boolean suspended = SUSPENDED.equals(reason);
        if (suspend && (phase == JobPhase.Pending || phase == JobPhase.Running || (phase == JobPhase.Aborted && !suspended))) {
            return Optional.of(Trigger.of(JobAction.AbortJob, SUSPENDED, "spec.suspend is true"));
        }
        if (!suspend && suspended && (phase == JobPhase.Aborting || phase == JobPhase.Aborted)) {
            return Optional.of(Trigger.of(JobAction.ResumeJob, RESUMED, "spec.suspend is no longer true"));
        }
        return Optional.empty();
    }

    private static JobFacts facts(Job job, PodCounts counts, Optional<Verdict> fatal, Optional<Trigger> trigger,
                                  Retries retries, JobStatus current, int version, Optional<Verdict> preempted) {
        Optional<Verdict> started = Optional.empty();
        Optional<Completion> completion = Optional.empty();
        if (fatal.isEmpty()) {
            int minAvailable = JobDefaults.minAvailable(job.getSpec());
            if (counts.started() >= minAvailable) {
                started = Optional.of(new Verdict(JobFacts.MIN_AVAILABLE_REACHED, counts.started() + "/"
                        + JobDefaults.totalReplicas(job.getSpec()) + " pods running or finished, minAvailable " + minAvailable));
            }
            completion = CompletionRule.judge(job.getSpec(), counts);
        }
        Optional<Verdict> stopped = Optional.empty();
        Optional<Verdict> replaced = Optional.empty();
        if (counts.active() == 0 && current != null && current.getState() != null) {
            // The job keeps the reason it was stopped for (Suspended, PodFailed, ...); only the message says more.
            stopped = Optional.of(new Verdict(current.getState().getReason(), current.getState().getMessage()
                    + "; no pod is active any more"));
        }
        if (counts.terminating() == 0) {
            replaced = Optional.of(new Verdict(RESTARTED, "every deleted pod is gone; creating pods of version "
                    + version + ", " + retries.used() + "/" + retries.max() + " retries used"));
        }
        return new JobFacts(fatal, started, completion, trigger, retries, stopped, replaced, preempted);
    }

    private static JobStatus nextStatus(Job job, JobStatus current, PodCounts counts,
                                        Optional<PhaseTransition> transition, Instant now) {
        String timestamp = KubeTime.format(now);
        JobStatus next = new JobStatus();
        List<JobCondition> conditions = new ArrayList<>(current == null ? List.of() : current.getConditions());
        int version = current == null ? 0 : current.getVersion();
        int retryCount = current == null ? 0 : current.getRetryCount();
        if (transition.isPresent()) {
            PhaseTransition t = transition.get();
            JobState state = new JobState();
            state.setPhase(t.to());
            state.setReason(t.verdict().reason());
            state.setMessage(t.verdict().message());
            state.setLastTransitionTime(timestamp);
            next.setState(state);
            conditions.add(new JobCondition(t.to(), timestamp));
            version += t.effect().bumpsVersion() ? 1 : 0;
            retryCount += t.effect().consumesRetry() ? 1 : 0;
        } else {
            next.setState(copy(current.getState()));
        }
        next.setConditions(conditions.size() > MAX_CONDITIONS
                ? new ArrayList<>(conditions.subList(conditions.size() - MAX_CONDITIONS, conditions.size())) : conditions);
        next.setMinAvailable(JobDefaults.minAvailable(job.getSpec()));
        next.setTaskStatusCount(counts.taskStatusCount());
        next.setPending(counts.pending());
        next.setRunning(counts.running());
        next.setSucceeded(counts.succeeded());
        next.setFailed(counts.failed());
        next.setTerminating(counts.terminating());
        next.setUnknown(counts.unknown());
        next.setVersion(version);
        next.setRetryCount(retryCount);
        // Refreshing the duration on every decision would make every reconcile write status (and so
        // trigger another reconcile); it is refreshed whenever status is written anyway.
        boolean writesAnyway = transition.isPresent() || !sameObservation(current, next);
        next.setRunningDuration(writesAnyway ? runningDuration(next, now)
                : current == null ? null : current.getRunningDuration());
        return next;
    }

    /**
     * A gated job in Pending tells what it waits for: the scheduler's admission of its PodGroup, with the
     * scheduler's reason while the gang does not fit; once admitted, its pods. This replaces the message of
     * the transition into Pending (Created, Restarted), which the transition's Event keeps. The message is
     * a function of the spec and the PodGroup, so an unchanged world rewrites nothing.
     */
    private static void describeAdmission(JobState state, Job job, Admission admission) {
        // A preempted job's message names the preemptor until it runs again; its reason says what it waits for.
        if (state.getPhase() != JobPhase.Pending || !admission.gated() || PodPreemption.PREEMPTED.equals(state.getReason())) {
            return;
        }
        state.setMessage(admission.allowsPods() ? admission.describe() + "; " + created(job).message()
                : admission.describe());
    }

    /**
     * When a finished job is to be deleted: {@code ttlSecondsAfterFinished} after it finished; Aborted jobs stay,
     * and so does a job without a status.
     */
    public static Optional<Instant> ttlExpiry(Job job, JobStatus status) {
        Integer ttl = job.getSpec().getTtlSecondsAfterFinished();
        if (ttl == null || status == null || status.getState() == null || status.getState().getPhase() == null) {
            return Optional.empty();
        }
        JobPhase phase = status.getState().getPhase();
        if (!phase.isFinished() || phase == JobPhase.Aborted) {
            return Optional.empty();
        }
        return PolicyEventObserver.time(status.getState().getLastTransitionTime()).map(t -> t.plusSeconds(ttl));
    }

    private static Optional<Instant> earliest(Optional<Instant> a, Optional<Instant> b) {
        if (a.isEmpty()) {
            return b;
        }
        return b.isEmpty() || a.get().isBefore(b.get()) ? a : b;
    }

    /** Time from first entering Running until the job finished, or until now while it has not. */
    private static String runningDuration(JobStatus status, Instant now) {
        Optional<Instant> started = status.getConditions().stream()
                .filter(c -> c.getStatus() == JobPhase.Running)
                .findFirst()
                .flatMap(c -> PolicyEventObserver.time(c.getLastTransitionTime()));
        if (started.isEmpty()) {
            return null;
        }
        Instant end = status.getState().getPhase().isFinished()
                ? PolicyEventObserver.time(status.getState().getLastTransitionTime()).orElse(now) : now;
        return GoDuration.format(Duration.between(started.get(), end));
    }

    private static boolean sameObservation(JobStatus current, JobStatus next) {
        return current != null
                && Objects.equals(current.getMinAvailable(), next.getMinAvailable())
                && current.getPending() == next.getPending()
                && current.getRunning() == next.getRunning()
                && current.getSucceeded() == next.getSucceeded()
                && current.getFailed() == next.getFailed()
                && current.getTerminating() == next.getTerminating()
                && current.getUnknown() == next.getUnknown()
                && Objects.equals(Objects.requireNonNullElse(current.getTaskStatusCount(), Map.of()),
                        next.getTaskStatusCount());
    }

    private static Verdict created(Job job) {
        int minAvailable = JobDefaults.minAvailable(job.getSpec());
        return new Verdict(CREATED, "waiting for " + minAvailable + " of "
                + JobDefaults.totalReplicas(job.getSpec()) + " pods to start (minAvailable " + minAvailable + ")"
                + otherSchedulers(job));
    }

    /**
     * What a waiting job must be told when its pods go to another scheduler than Muster's, which then neither
     * admits nor binds them: {@code "; its pods are for scheduler 'volcano', ..."}, or per task when only some
     * templates name one ({@link JobPodRenderer#schedulerName}); empty when all are Muster's.
     */
    private static String otherSchedulers(Job job) {
        Map<String, List<String>> tasksBy = new TreeMap<>();
        List<TaskSpec> tasks = JobDefaults.tasksOf(job.getSpec());
        for (TaskSpec task : tasks) {
            String scheduler = JobPodRenderer.schedulerName(job, task);
            if (!MusterLabels.SCHEDULER_NAME.equals(scheduler)) {
                tasksBy.computeIfAbsent(scheduler, s -> new ArrayList<>()).add(task.getName());
            }
        }
        String not = ", not Muster's ('" + MusterLabels.SCHEDULER_NAME + "'), which neither admits nor binds them";
        if (tasksBy.size() == 1 && tasksBy.values().iterator().next().size() == tasks.size()) {
            return "; its pods are for scheduler '" + tasksBy.keySet().iterator().next() + "'" + not;
        }
        StringBuilder message = new StringBuilder();
        tasksBy.forEach((scheduler, names) -> message.append("; the pods of task ").append(String.join(", ", names))
                .append(" are for scheduler '").append(scheduler).append("'").append(not));
        return message.toString();
    }

    /** While the job's pods wait for admission or for its queue: since the job last entered Pending. */
    private static Optional<PolicyEventObserver.AdmissionWait> admissionWait(Observation seen, Admission admission,
                                                                             Optional<Verdict> queueHold, Instant now) {
        if (admission.allowsPods() && queueHold.isEmpty() || seen.phase() != JobPhase.Pending) {
            return Optional.empty();
        }
        JobStatus current = seen.current();
        Optional<Instant> entered = current == null || current.getState() == null ? Optional.empty()
                : PolicyEventObserver.time(current.getState().getLastTransitionTime());
        Instant since = entered.or(() -> PolicyEventObserver.time(seen.job().getMetadata().getCreationTimestamp())).orElse(now);
        return Optional.of(new PolicyEventObserver.AdmissionWait(since,
                queueHold.map(Verdict::message).orElseGet(admission::describe)));
    }

    /**
     * When a job in {@code state} must have finished: {@code spec.maxRuntime} after it last entered Running,
     * as kube's {@code activeDeadlineSeconds} but per run, so that a gang preempted and started again gets its
     * full time. Only while Running.
     */
    private static Optional<Instant> runtimeDeadline(Job job, JobState state) {
        String maxRuntime = job.getSpec().getMaxRuntime();
        if (maxRuntime == null || state == null || state.getPhase() != JobPhase.Running) {
            return Optional.empty();
        }
        try {
            Duration limit = GoDuration.parse(maxRuntime);
            return PolicyEventObserver.time(state.getLastTransitionTime()).map(since -> since.plus(limit));
        } catch (IllegalArgumentException e) {
            // Validation reports it; an invalid job never reaches Running.
            return Optional.empty();
        }
    }

    /** Why a Running job must stop: it has run for its {@code spec.maxRuntime}. */
    private static Optional<Verdict> maxRuntimeExceeded(Observation seen, Instant now) {
        if (seen.phase() != JobPhase.Running) {
            return Optional.empty();
        }
        JobState state = seen.current().getState();
        return runtimeDeadline(seen.job(), state).filter(deadline -> !now.isBefore(deadline))
                .map(deadline -> new Verdict(JobFacts.MAX_RUNTIME_EXCEEDED, "the job ran longer than spec.maxRuntime "
                        + seen.job().getSpec().getMaxRuntime() + " (Running since " + state.getLastTransitionTime()
                        + "); its pods are deleted"));
    }

    /**
     * Why a Running job goes back to Pending: every pod that ran is a preemption victim the scheduler is
     * evicting, and none runs besides. The message names the preemptor, as the victims' condition does.
     */
    private static Optional<Verdict> preempted(Observation seen) {
        List<Pod> victims = seen.pods().preempted();
        if (seen.phase() != JobPhase.Running || victims.isEmpty() || seen.counts().running() > 0) {
            return Optional.empty();
        }
        String by = victims.stream().sorted(Comparator.comparing(p -> p.getMetadata().getName()))
                .map(PodPreemption::message).flatMap(Optional::stream).filter(m -> !m.isBlank())
                .findFirst().orElse("by the scheduler");
        return Optional.of(new Verdict(PodPreemption.PREEMPTED, "the scheduler preempted the gang (" + victims.size()
                + " pods): " + by + "; the job keeps its PodGroup and its place in the queue, and creates its pods"
                + " again once the gang is admitted again"));
    }

    /** A job whose spec was given as null, with an empty one: it fails validation like any job without tasks. */
    private static Job withEmptySpec(Job job) {
        Job copy = new Job();
        copy.setMetadata(job.getMetadata());
        copy.setSpec(new JobSpec());
        copy.setStatus(job.getStatus());
        // A spec that could not be read is missing too; validation must still name the field that failed.
        job.readFailure().ifPresent(copy::readFailure);
        return copy;
    }

    private static JobState copy(JobState state) {
        JobState copy = new JobState();
        copy.setPhase(state.getPhase());
        copy.setReason(state.getReason());
        copy.setMessage(state.getMessage());
        copy.setLastTransitionTime(state.getLastTransitionTime());
        return copy;
    }
}
