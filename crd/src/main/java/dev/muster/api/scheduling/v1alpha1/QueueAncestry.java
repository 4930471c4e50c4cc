package dev.muster.api.scheduling.v1alpha1;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The queue tree as the Queues' specs say it, walked one way for everyone who needs it: which queue a Job may
 * use ({@link QueueAccess}), what makes a queue invalid ({@link QueueTreeValidator}), and the views that show
 * the tree. A queue's parent is read as {@link QueueDefaults#parent} reads it, so an empty {@code spec.parent}
 * is a queue at the top for all of them.
 *
 * @param path          the queue and its ancestors, the queue first, as far as the walk got
 * @param missingParent the parent that the last queue of {@code path} names and that does not exist, if any
 * @param cycleStart    the queue at which the walk came back on itself (a cycle of parents), if any
 */
public record QueueAncestry(List<String> path, String missingParent, String cycleStart) {

    /** Walks up from {@code name} through {@code specs} (every queue's spec by name; a spec may be {@code null}). */
    public static QueueAncestry of(String name, Map<String, QueueSpec> specs) {
        Set<String> path = new LinkedHashSet<>();
        String current = name;
        while (current != null && path.add(current)) {
            String parent = QueueDefaults.parent(specs.get(current));
            if (parent != null && !specs.containsKey(parent)) {
                return new QueueAncestry(List.copyOf(path), parent, null);
            }
            current = parent;
        }
        return new QueueAncestry(List.copyOf(path), null, current);
    }

    /** Whether the walk reached the top of the tree: no missing parent, no cycle. */
    public boolean reachesTop() {
        return missingParent == null && cycleStart == null;
    }

    /** The queues of the cycle of parents, from {@link #cycleStart}; empty when there is none. */
    public List<String> cycle() {
        return cycleStart == null ? List.of() : path.subList(path.indexOf(cycleStart), path.size());
    }

    /**
     * Each existing queue that some other queue names as parent, with those children in name order (a queue that
     * names itself is not its own child).
     */
    public static Map<String, List<String>> children(Map<String, QueueSpec> specs) {
        Map<String, List<String>> children = new TreeMap<>();
        new TreeMap<>(specs).forEach((name, spec) -> {
            String parent = QueueDefaults.parent(spec);
            if (parent != null && !parent.equals(name) && specs.containsKey(parent)) {
                children.computeIfAbsent(parent, p -> new ArrayList<>()).add(name);
            }
        });
        return children;
    }
}
