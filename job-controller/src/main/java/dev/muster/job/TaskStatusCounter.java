package dev.muster.job;

import io.fabric8.kubernetes.api.model.Pod;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

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
        Map<String, Map<String, Integer>> byTask = new HashMap<>();
        int pending = 0;
        int running = 0;
        int succeeded = 0;
        int failed = 0;
        int terminating = 0;
        int unknown = 0;
        for (Pod pod : pods) {
            if (PodPhases.isTerminating(pod)) {
                terminating++;
                continue;
            }
            String phase = PodPhases.of(pod);
            switch (phase) {
                case PodPhases.PENDING -> pending++;
                case PodPhases.RUNNING -> running++;
                case PodPhases.SUCCEEDED -> succeeded++;
                case PodPhases.FAILED -> failed++;
                default -> {
                    unknown++;
                    phase = PodPhases.UNKNOWN;
                }
            }
            String task = JobPods.taskOf(pod);
            if (task != null) {
                byTask.computeIfAbsent(task, t -> new TreeMap<>()).merge(phase, 1, Integer::sum);
            }
        }
        return new PodCounts(byTask, pending, running, succeeded, failed, terminating, unknown);
    }
}
