package dev.muster.job.decision;

import dev.muster.api.PodPhase;
import dev.muster.api.batch.v1alpha1.TaskState;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The pods of one job counted by phase, in total and per task.
 *
 * @param byTask      task name → pod phase → pods; only phases with pods appear
 * @param pending     pods in phase Pending (or without a phase yet)
 * @param running     pods in phase Running
 * @param succeeded   pods in phase Succeeded
 * @param failed      pods in phase Failed
 * @param terminating pods being deleted, whatever their phase; they count nowhere else
 * @param unknown     pods in phase Unknown or a phase this controller does not know
 */
public record PodCounts(Map<String, Map<PodPhase, Integer>> byTask, int pending, int running, int succeeded,
                        int failed, int terminating, int unknown) {

    /** No pods at all. */
    public static final PodCounts NONE = new PodCounts(Map.of(), 0, 0, 0, 0, 0, 0);

    public PodCounts {
        byTask = byTask.entrySet().stream()
                .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, e -> Map.copyOf(e.getValue())));
    }

    /** Pods that have started at some point: running or finished. */
    public int started() {
        return running + succeeded + failed;
    }

    /** Pods that have finished, successfully or not. */
    public int finished() {
        return succeeded + failed;
    }

    /** Succeeded pods of one task. */
    public int succeeded(String task) {
        return byTask.getOrDefault(task, Map.of()).getOrDefault(PodPhase.Succeeded, 0);
    }

    /** Pods that have not finished: pending, running, unknown or being deleted. */
    public int active() {
        return pending + running + unknown + terminating;
    }

    /** These counts with {@code more} pods added to those being deleted. */
    public PodCounts plusTerminating(int more) {
        return more == 0 ? this : new PodCounts(byTask, pending, running, succeeded, failed, terminating + more, unknown);
    }

    /** Failed pods of one task. */
    public int failed(String task) {
        return byTask.getOrDefault(task, Map.of()).getOrDefault(PodPhase.Failed, 0);
    }

    /** Running or Succeeded pods of one task: what a task that others depend on must have enough of. */
    public int up(String task) {
        Map<PodPhase, Integer> phases = byTask.getOrDefault(task, Map.of());
        return phases.getOrDefault(PodPhase.Running, 0) + phases.getOrDefault(PodPhase.Succeeded, 0);
    }

    /** The counts in the shape of {@code status.taskStatusCount}, tasks in name order. */
    public Map<String, TaskState> taskStatusCount() {
        Map<String, TaskState> result = new LinkedHashMap<>();
        byTask.keySet().stream().sorted().forEach(task -> {
            Map<String, Integer> phases = new TreeMap<>();
            byTask.get(task).forEach((phase, pods) -> phases.put(phase.name(), pods));
            result.put(task, new TaskState(phases));
        });
        return result;
    }
}
