package dev.muster.job.decision;

import java.util.EnumMap;
import dev.muster.api.PodPhase;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/** Counts a job's pods by phase, in total and per task; a pure function of the pods. */
public final class TaskStatusCounter {
    private TaskStatusCounter() {
    }

    /**
     * Counts the pods. A pod being deleted counts only as terminating: it is on its way out, so it must
     * neither start a gang nor complete a task. Pods without a task label count in the totals only.
     */
    public static PodCounts count(Collection<Pod> pods) {
        if (pods.isEmpty()) {
            return PodCounts.NONE;
        }
        Map<String, Map<PodPhase, Integer>> byTask = new HashMap<>();
        int pending = 0;
        int running = 0;
        int succeeded = 0;
        int failed = 0;
        int terminating = 0;
        int unknown = 0;
        for (Pod pod : pods) {
            if (PodPhase.isTerminating(pod)) {
                terminating++;
                continue;
            }
            PodPhase phase = PodPhase.of(pod);
            switch (phase) {
                case Pending -> pending++;
                case Running -> running++;
                case Succeeded -> succeeded++;
                case Failed -> failed++;
                case Unknown -> unknown++;
            }
            String task = JobPods.taskOf(pod);
            if (task != null) {
                byTask.computeIfAbsent(task, t -> new EnumMap<>(PodPhase.class)).merge(phase, 1, Integer::sum);
            }
        }
        return new PodCounts(byTask, pending, running, succeeded, failed, terminating, unknown);
    }
}
