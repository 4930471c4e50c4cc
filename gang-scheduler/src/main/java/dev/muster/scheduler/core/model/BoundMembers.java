package dev.muster.scheduler.core.model;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The pods of one gang that are bound (or being bound), counted per node and task. A cycle counts
 * toward the quorum only those on nodes that still exist: a pod bound to a deleted node runs nowhere,
 * yet it stays bound, with its {@code nodeName}, until a node lifecycle controller deletes it, which may
 * take minutes or, on a cluster without one, never happen.
 *
 * <p>Not thread-safe; the owner serialises access.
 */
public final class BoundMembers {
    private final Map<String, Map<String, Integer>> byNodeAndTask = new HashMap<>();

    /** Counts one pod of the task as bound to the node. */
    public void add(String nodeName, String task) {
        byNodeAndTask.computeIfAbsent(nodeName, n -> new HashMap<>()).merge(task, 1, Integer::sum);
    }

    /** Undoes one {@link #add} with the same arguments. */
    public void remove(String nodeName, String task) {
        Map<String, Integer> byTask = byNodeAndTask.get(nodeName);
        if (byTask == null || !byTask.containsKey(task)) {
            throw new IllegalStateException("no pod of task '" + task + "' is counted on node " + nodeName);
        }
        if (byTask.merge(task, -1, Integer::sum) == 0) {
            byTask.remove(task);
        }
        if (byTask.isEmpty()) {
            byNodeAndTask.remove(nodeName);
        }
    }

    /** Whether no pod is counted, on any node. */
    public boolean isEmpty() {
        return byNodeAndTask.isEmpty();
    }

    /** Whether any pod is counted on the node. */
    public boolean anyOn(String nodeName) {
        return byNodeAndTask.containsKey(nodeName);
    }

    /**
     * The pods that count toward the quorum: those on nodes for which {@code nodeExists} holds.
     *
     * @param nodeExists whether a node is in the cluster, e.g. {@code ClusterState.hasNode}
     */
    public Count countOn(Predicate<String> nodeExists) {
        int total = 0;
        Map<String, Integer> byTask = new HashMap<>();
        for (Map.Entry<String, Map<String, Integer>> node : byNodeAndTask.entrySet()) {
            if (nodeExists.test(node.getKey())) {
                for (Map.Entry<String, Integer> task : node.getValue().entrySet()) {
                    total += task.getValue();
                    byTask.merge(task.getKey(), task.getValue(), Integer::sum);
                }
            }
        }
        return new Count(total, byTask);
    }

    /**
     * Bound pods that count toward a gang's quorum.
     *
     * @param total  all of them
     * @param byTask per task name
     */
    public record Count(int total, Map<String, Integer> byTask) {
        public Count {
            byTask = Map.copyOf(byTask);
        }
    }
}
