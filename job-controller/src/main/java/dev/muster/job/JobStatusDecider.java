package dev.muster.job;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobCondition;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.JobState;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.batch.v1alpha1.TaskState;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The job controller's decision core: (job with its current status, the job's pods, now) → the status
 * the job should have and the phase change that leads there. Pure apart from reading the clock value it
 * is given; never mutates its inputs, which usually come from the informer cache. Thread-safe.
 */
public final class JobStatusDecider {
    /** Reason of the first status of a job that is valid but has not started. */
    public static final String CREATED = "Created";

    private final JobLifecycle lifecycle;

    public JobStatusDecider(JobLifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    /** Decides the status of {@code job} given its pods (only those it controls) at time {@code now}. */
    public JobDecision decide(Job job, Collection<Pod> pods, Instant now) {
        PodCounts counts = TaskStatusCounter.count(pods);
        JobStatus current = job.getStatus();
        boolean fresh = current == null || current.getState() == null || current.getState().getPhase() == null;
        JobPhase phase = fresh ? JobPhase.Pending : current.getState().getPhase();
        Optional<PhaseTransition> transition = lifecycle.fire(phase, JobAction.SyncJob, JobFacts.of(job, counts));
        if (transition.isEmpty() && fresh) {
            transition = Optional.of(new PhaseTransition(JobPhase.Pending, JobPhase.Pending, created(job)));
        }
        return new JobDecision(nextStatus(job, fresh ? null : current, counts, transition, now), transition);
    }

    private static JobStatus nextStatus(Job job, JobStatus current, PodCounts counts,
                                        Optional<PhaseTransition> transition, Instant now) {
        String timestamp = DateTimeFormatter.ISO_INSTANT.format(now.truncatedTo(ChronoUnit.SECONDS));
        JobStatus next = new JobStatus();
        List<JobCondition> conditions = new ArrayList<>(current == null ? List.of() : current.getConditions());
        if (transition.isPresent()) {
            PhaseTransition t = transition.get();
            JobState state = new JobState();
            state.setPhase(t.to());
            state.setReason(t.verdict().reason());
            state.setMessage(t.verdict().message());
            state.setLastTransitionTime(timestamp);
            next.setState(state);
            conditions.add(new JobCondition(t.to(), timestamp));
        } else {
            next.setState(copy(current.getState()));
        }
        next.setConditions(conditions);
        next.setMinAvailable(job.getSpec() == null ? null : JobDefaults.minAvailable(job.getSpec()));
        next.setTaskStatusCount(counts.taskStatusCount());
        next.setPending(counts.pending());
        next.setRunning(counts.running());
        next.setSucceeded(counts.succeeded());
        next.setFailed(counts.failed());
        next.setTerminating(counts.terminating());
        next.setUnknown(counts.unknown());
        next.setVersion(current == null ? 0 : current.getVersion());
        next.setRetryCount(current == null ? 0 : current.getRetryCount());
        // Refreshing the duration on every decision would make every reconcile write status (and so
        // trigger another reconcile); it is refreshed whenever status is written anyway.
        boolean writesAnyway = transition.isPresent() || !sameObservation(current, next);
        next.setRunningDuration(writesAnyway ? runningDuration(next, now)
                : current == null ? null : current.getRunningDuration());
        return next;
    }

    /** Time from first entering Running until the job finished, or until now while it has not. */
    private static String runningDuration(JobStatus status, Instant now) {
        Optional<Instant> started = status.getConditions().stream()
                .filter(c -> c.getStatus() == JobPhase.Running)
                .findFirst()
                .flatMap(c -> parse(c.getLastTransitionTime()));
        if (started.isEmpty()) {
            return null;
        }
        Instant end = status.getState().getPhase().isFinished()
                ? parse(status.getState().getLastTransitionTime()).orElse(now) : now;
        return GoDurations.format(Duration.between(started.get(), end));
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
                && sameTaskCounts(current.getTaskStatusCount(), next.getTaskStatusCount());
    }

    private static boolean sameTaskCounts(Map<String, TaskState> a, Map<String, TaskState> b) {
        Map<String, TaskState> left = a == null ? Map.of() : a;
        if (left.size() != b.size()) {
            return false;
        }
        for (Map.Entry<String, TaskState> e : b.entrySet()) {
            TaskState other = left.get(e.getKey());
            if (other == null || !Objects.equals(other.getPhase(), e.getValue().getPhase())) {
                return false;
            }
        }
        return true;
    }

    private static Verdict created(Job job) {
        int minAvailable = JobDefaults.minAvailable(job.getSpec());
        return new Verdict(CREATED, "waiting for " + minAvailable + " of "
                + JobDefaults.totalReplicas(job.getSpec()) + " pods to start (minAvailable " + minAvailable + ")");
    }

    private static JobState copy(JobState state) {
        JobState copy = new JobState();
        copy.setPhase(state.getPhase());
        copy.setReason(state.getReason());
        copy.setMessage(state.getMessage());
        copy.setLastTransitionTime(state.getLastTransitionTime());
        return copy;
    }

    private static Optional<Instant> parse(String timestamp) {
        try {
            return Optional.ofNullable(timestamp).map(Instant::parse);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
