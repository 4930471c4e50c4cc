package dev.muster.job.decision;

import dev.muster.job.lifecycle.Effect;
import dev.muster.job.lifecycle.PhaseTransition;
import dev.muster.job.lifecycle.Trigger;
import dev.muster.api.PodPhase;
import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Which of a job's pods to delete, as a pure function of the phase the job is in after a decision and
 * the transition that led there. Pods already being deleted are never deleted again.
 */
final class PodCleanup {
    private PodCleanup() {
    }

    static List<Pod> plan(Job job, JobPhase phase, Optional<PhaseTransition> transition, Optional<Trigger> trigger,
                          JobPods pods) {
        List<Pod> delete = new ArrayList<>();
        for (Pod pod : pods.stale()) {
            if (!PodPhase.isTerminating(pod)) {
                delete.add(pod);
            }
        }
        List<Pod> current = pods.current().stream().filter(p -> !PodPhase.isTerminating(p)).toList();
        switch (phase) {
            case Pending, Running -> {
                delete.addAll(beyondReplicas(job, current));
                if (transition.filter(t -> t.effect() == Effect.PREEMPTED).isPresent()) {
                    current.stream().filter(PodPhase::isActive).filter(p -> !delete.contains(p)).forEach(delete::add);
                }
            }
            case Restarting -> transition.filter(t -> t.to() == JobPhase.Restarting)
                    .ifPresent(t -> delete.addAll(restartTargets(t.effect(), trigger, current, pods.current())));
            default -> current.stream().filter(PodPhase::isActive).forEach(delete::add);
        }
        return delete;
    }

    /** Pods of a restarted task, partition or pod; a restart with none named restarts every pod. */
    private static List<Pod> restartTargets(Effect effect, Optional<Trigger> trigger, List<Pod> current,
                                            List<Pod> all) {
        Optional<String> pod = trigger.flatMap(Trigger::pod)
                .filter(p -> effect == Effect.RESTART_POD || effect == Effect.RESTART_PARTITION);
        Optional<String> task = trigger.flatMap(Trigger::task).filter(t -> effect != Effect.RESTART_JOB);
        if (pod.isPresent() && effect == Effect.RESTART_PARTITION && task.isPresent()) {
            // The partition as the event's pod is labelled, even if it is being deleted (evicted); a pod of a task
            // without partitions is one alone.
            Optional<String> partition = all.stream().filter(p -> p.getMetadata().getName().equals(pod.get()))
                    .findFirst().map(p -> label(p, MusterLabels.PARTITION_ID));
            if (partition.isPresent()) {
                return current.stream().filter(p -> task.get().equals(JobPods.taskOf(p))
                        && partition.get().equals(label(p, MusterLabels.PARTITION_ID))).toList();
            }
        }
        if (pod.isPresent()) {
            return current.stream().filter(p -> p.getMetadata().getName().equals(pod.get())).toList();
        }
        if (task.isPresent()) {
            return current.stream().filter(p -> task.get().equals(JobPods.taskOf(p))).toList();
        }
        return current;
    }

    /** Pods a scale-down left over: of a task the spec no longer has, or at an index >= the task's replicas. */
    private static List<Pod> beyondReplicas(Job job, List<Pod> current) {
        Map<String, Integer> replicas = JobDefaults.tasksOf(job.getSpec()).stream()
                .collect(Collectors.toMap(TaskSpec::getName, JobDefaults::replicas, (a, b) -> a));
        List<Pod> extra = new ArrayList<>();
        for (Pod pod : current) {
            Integer wanted = replicas.get(JobPods.taskOf(pod));
            String index = label(pod, MusterLabels.TASK_INDEX);
            if (wanted == null || index == null || parse(index) >= wanted) {
                extra.add(pod);
            }
        }
        return extra;
    }

    private static int parse(String index) {
        try {
            return Integer.parseInt(index);
        } catch (NumberFormatException e) {
            return Integer.MAX_VALUE;
        }
    }

    private static String label(Pod pod, String key) {
        return pod.getMetadata().getLabels() == null ? null : pod.getMetadata().getLabels().get(key);
    }
}
