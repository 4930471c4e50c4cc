package dev.muster.job.decision;

import dev.muster.api.PodPhase;
import dev.muster.api.Sidecars;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.JobPolicies;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Turns a job's pods and PodGroup into the policy events its lifecycle policies act on (PodFailed,
 * TaskCompleted, Unknown, ...: the {@code event} of a policy, not core/v1 Events); a pure function. Only pods of the
 * job's current version are given to it, so a pod left from before a restart cannot trigger anything.
 * Events come in a stable order (per task in spec order: task events, then pods by name; then Unknown)
 * so that the same world always triggers the same action.
 */
final class PolicyEventObserver {
    static final String EVICTED = "Evicted";

    private PolicyEventObserver() {
    }

    /**
     * @param job     the job, for its tasks and their {@code maxRetry}
     * @param pods    the job's pods of its current version that the controller has not deleted itself
     * @param counts  those pods counted
     * @param group   the job's PodGroup, if it exists
     * @param waiting while the job's pods wait for the scheduler to admit its gang (and so do not exist):
     *                since when, and why; each task without pods then counts as PodPending since that time,
     *                so that "give the cluster 10 minutes, then abort" works with admission on
     */
    static List<PolicyEvent> observe(Job job, List<Pod> pods, PodCounts counts, Optional<PodGroup> group,
                                       Optional<AdmissionWait> waiting) {
        List<PolicyEvent> events = new ArrayList<>();
        // Timestamps are parsed only for the events that happen: parsing is the costly part of observing.
        Supplier<Instant> jobCreated = () -> time(job.getMetadata().getCreationTimestamp()).orElse(Instant.EPOCH);
        for (TaskSpec task : job.getSpec().getTasks()) {
            List<Pod> taskPods = pods.stream().filter(p -> task.getName().equals(JobPods.taskOf(p)))
                    .sorted(Comparator.comparing(p -> p.getMetadata().getName())).toList();
            taskEvents(job, task, taskPods, counts, jobCreated, events);
            int replicas = JobDefaults.replicas(task);
            if (taskPods.isEmpty() && replicas > 0 && waiting.isPresent()) {
                events.add(taskEvent(JobPolicies.POD_PENDING, task.getName(), waiting.get().since(), "task "
                        + task.getName() + ": " + replicas + " pods not created yet, " + waiting.get().why()));
            }
            for (Pod pod : taskPods) {
                podEvent(task, pod).ifPresent(events::add);
            }
        }
        // Unknown is about a gang that runs in part. With no pod of this version running, the phase is one
        // the PodGroup controller has not recomputed since a restart, and acting on it would restart again.
        group.filter(g -> counts.running() > 0 && g.getStatus() != null && g.getStatus().getPhase() == PodGroupPhase.Unknown)
                .ifPresent(g -> events.add(new PolicyEvent(Optional.of(JobPolicies.UNKNOWN), Optional.empty(),
                        Optional.empty(), Set.of(), unknownSince(g).orElseGet(jobCreated),
                        "PodGroup " + g.getMetadata().getName() + " is Unknown: some pods run, the others cannot be placed")));
        return events;
    }

    /**
     * A job whose pods wait for admission: since when (the time it last entered Pending) and the admission in
     * words.
     */
    record AdmissionWait(Instant since, String why) {
    }

    /** The effective restart budget of a task's pods that restart in place: its maxRetry, else the job's. */
    static int maxRestarts(Job job, TaskSpec task) {
        return task.getMaxRetry() != null ? task.getMaxRetry() : JobDefaults.maxRetry(job.getSpec());
    }

    private static void taskEvents(Job job, TaskSpec task, List<Pod> taskPods, PodCounts counts,
                                   Supplier<Instant> jobCreated, List<PolicyEvent> events) {
        String name = task.getName();
        int replicas = JobDefaults.replicas(task);
        int succeeded = counts.succeeded(name);
        Supplier<Instant> lastFinish = () -> taskPods.stream().map(PolicyEventObserver::finishedAt).flatMap(Optional::stream)
                .max(Comparator.naturalOrder()).orElseGet(jobCreated);
        if (replicas > 0 && succeeded >= replicas) {
            events.add(taskEvent(JobPolicies.TASK_COMPLETED, name, lastFinish.get(),
                    "task " + name + ": " + succeeded + "/" + replicas + " pods succeeded"));
        }
        int maxRestarts = maxRestarts(job, task);
        for (Pod pod : taskPods) {
            int restarts = restarts(pod);
            if (restarts > maxRestarts) {
                events.add(new PolicyEvent(Optional.of(JobPolicies.TASK_FAILED), Optional.of(name),
                        Optional.of(pod.getMetadata().getName()), Set.of(), lastFinish.get(),
                        "pod " + pod.getMetadata().getName() + " restarted " + restarts + " times, more than task "
                                + name + "'s maxRetry " + maxRestarts));
            }
        }
        int failed = counts.failed(name);
        // An elastic job's task has no minimum (0) to miss, so failures alone never fail the task.
        int minAvailable = JobDefaults.enforcedMinAvailable(job.getSpec(), task);
        if (failed > replicas - minAvailable) {
            events.add(taskEvent(JobPolicies.TASK_FAILED, name, lastFinish.get(), "task " + name + ": " + failed + "/"
                    + replicas + " pods failed, minAvailable " + minAvailable + " can no longer succeed"));
        }
    }

    private static PolicyEvent taskEvent(String event, String task, Instant since, String message) {
        return new PolicyEvent(Optional.of(event), Optional.of(task), Optional.empty(), Set.of(), since, message);
    }

    private static Optional<PolicyEvent> podEvent(TaskSpec task, Pod pod) {
        String name = pod.getMetadata().getName();
        Set<Integer> exitCodes = exitCodes(pod);
        PodPhase phase = PodPhase.of(pod);
        Optional<String> event;
        String message;
        if (PodPhase.isTerminating(pod)) {
            if (PodPhase.isFinished(pod)) {
                return Optional.empty();
            }
            // The controller's own deletions are filtered out before; anyone else deleting a live pod evicts it.
            event = Optional.of(JobPolicies.POD_EVICTED);
            message = "pod " + name + " was deleted while " + phase;
        } else if (phase == PodPhase.Failed) {
            boolean evicted = pod.getStatus() != null && EVICTED.equals(pod.getStatus().getReason());
            event = Optional.of(evicted ? JobPolicies.POD_EVICTED : JobPolicies.POD_FAILED);
            message = evicted ? "pod " + name + " was evicted: " + pod.getStatus().getMessage() : failure(pod);
        } else if (phase == PodPhase.Pending) {
            event = Optional.of(JobPolicies.POD_PENDING);
            message = "pod " + name + " is Pending";
        } else if (!exitCodes.isEmpty()) {
            event = Optional.empty();
            message = failure(pod);
        } else {
            return Optional.empty();
        }
        return Optional.of(new PolicyEvent(event, Optional.of(task.getName()), Optional.of(name), exitCodes,
                finishedAt(pod).orElseGet(() -> time(pod.getMetadata().getCreationTimestamp()).orElse(Instant.EPOCH)), message));
    }

    /** {@code pod x exited 137 (OOMKilled)}, naming the first container that exited non-zero. */
    private static String failure(Pod pod) {
        String name = pod.getMetadata().getName();
        return terminations(pod).filter(t -> t.getExitCode() != null && t.getExitCode() != 0).findFirst()
                .map(t -> "pod " + name + " exited " + t.getExitCode() + (t.getReason() == null ? "" : " (" + t.getReason() + ")"))
                .orElse("pod " + name + " failed" + (pod.getStatus() != null && pod.getStatus().getReason() != null
                        ? " (" + pod.getStatus().getReason() + ")" : ""));
    }

    private static Set<Integer> exitCodes(Pod pod) {
        Set<Integer> codes = new LinkedHashSet<>();
        terminations(pod).forEach(t -> {
            if (t.getExitCode() != null && t.getExitCode() != 0) {
                codes.add(t.getExitCode());
            }
        });
        return codes;
    }

    /** Terminated states of every container, init containers included, of this run and the previous one. */
    private static Stream<ContainerStateTerminated> terminations(Pod pod) {
        return containerStatuses(pod).flatMap(s -> Stream.of(
                s.getState() == null ? null : s.getState().getTerminated(),
                s.getLastState() == null ? null : s.getLastState().getTerminated())).filter(t -> t != null);
    }

    /**
     * The statuses of the pod's containers and init containers, but not of its sidecars (init containers with
     * {@code restartPolicy: Always}): the kubelet restarts a sidecar whenever it ends and stops it with SIGTERM when
     * the containers are done, so its exit codes (143 on a pod that succeeded) and restarts say nothing of the
     * task's work.
     */
    private static Stream<ContainerStatus> containerStatuses(Pod pod) {
        if (pod.getStatus() == null) {
            return Stream.empty();
        }
        List<ContainerStatus> all = new ArrayList<>();
        if (pod.getStatus().getInitContainerStatuses() != null) {
            Set<String> sidecars = Sidecars.names(pod.getSpec());
            pod.getStatus().getInitContainerStatuses().stream().filter(s -> !sidecars.contains(s.getName())).forEach(all::add);
        }
        if (pod.getStatus().getContainerStatuses() != null) {
            all.addAll(pod.getStatus().getContainerStatuses());
        }
        return all.stream();
    }

    private static int restarts(Pod pod) {
        return containerStatuses(pod).mapToInt(s -> s.getRestartCount() == null ? 0 : s.getRestartCount()).max().orElse(0);
    }

    private static Optional<Instant> finishedAt(Pod pod) {
        return terminations(pod).map(t -> time(t.getFinishedAt())).flatMap(Optional::stream).max(Comparator.naturalOrder());
    }

    private static Optional<Instant> unknownSince(PodGroup group) {
        return group.getStatus().getConditions().stream().map(PodGroupCondition::getLastTransitionTime)
                .map(PolicyEventObserver::time).flatMap(Optional::stream).max(Comparator.naturalOrder())
                .or(() -> time(group.getMetadata().getCreationTimestamp()));
    }

    static Optional<Instant> time(String timestamp) {
        try {
            return Optional.ofNullable(timestamp).map(Instant::parse);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
