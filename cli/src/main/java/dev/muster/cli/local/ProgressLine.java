package dev.muster.cli.local;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.batch.v1alpha1.TaskState;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;

import java.util.Map;
import java.util.stream.Collectors;

/** One line of {@code ./muster local} progress for a Job or a PodGroup; pure formatting of their status. */
final class ProgressLine {
    private ProgressLine() {
    }

    /** E.g. {@code job default/train  Running  master: 1 Running | worker: 3 Running}. */
    static String of(Job job) {
        JobStatus status = job.getStatus();
        StringBuilder line = new StringBuilder("job ").append(key(job.getMetadata().getNamespace(), job.getMetadata().getName()));
        if (status == null || status.getState() == null || status.getState().getPhase() == null) {
            return line.append("  Submitted").toString();
        }
        line.append("  ").append(status.getState().getPhase());
        String tasks = tasks(status.getTaskStatusCount());
        if (!tasks.isEmpty()) {
            line.append("  ").append(tasks);
        }
        if (status.getState().getReason() != null) {
            line.append("  (").append(status.getState().getReason());
            if (status.getState().getMessage() != null) {
                line.append(": ").append(status.getState().getMessage());
            }
            line.append(')');
        }
        return line.toString();
    }

    /** E.g. {@code podgroup default/nginx  Pending  running 0, succeeded 0, failed 0  Unschedulable: ...}. */
    static String of(PodGroup group) {
        PodGroupStatus status = group.getStatus();
        StringBuilder line = new StringBuilder("podgroup ").append(key(group.getMetadata().getNamespace(), group.getMetadata().getName()));
        if (status == null || status.getPhase() == null) {
            return line.append("  Submitted").toString();
        }
        line.append("  ").append(status.getPhase())
                .append("  running ").append(status.getRunning())
                .append(", succeeded ").append(status.getSucceeded())
                .append(", failed ").append(status.getFailed());
        if (status.getConditions() != null) {
            status.getConditions().stream()
                    .filter(c -> PodGroupCondition.UNSCHEDULABLE.equals(c.getType()) && "True".equals(c.getStatus()))
                    .findFirst()
                    .ifPresent(c -> line.append("  Unschedulable: ").append(c.getReason()).append(": ").append(c.getMessage()));
        }
        return line.toString();
    }

    private static String tasks(Map<String, TaskState> counts) {
        if (counts == null) {
            return "";
        }
        return counts.entrySet().stream()
                .map(e -> e.getKey() + ": " + (e.getValue().getPhase() == null ? "" : e.getValue().getPhase().entrySet().stream()
                        .filter(p -> p.getValue() != null && p.getValue() > 0)
                        .map(p -> p.getValue() + " " + p.getKey())
                        .collect(Collectors.joining(", "))))
                .collect(Collectors.joining(" | "));
    }

    private static String key(String namespace, String name) {
        return namespace + "/" + name;
    }
}
