package dev.muster.scheduler.core.queue;

import dev.muster.scheduler.core.model.QueueInfo;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The queue hierarchy of one cycle, indexed: queues are numbered parents before children, so that a pass
 * in index order sees a parent before its subtree and a pass in reverse order sees children first.
 *
 * <p>A queue whose parent does not exist, or that is its own ancestor, is left out of the tree; the scheduler
 * holds its gangs before the plan ({@code QueueAccess}, the rule the Job controller applies too). Of two
 * queues with one name, the first is kept.
 */
public final class QueueTree {
    /** The parent index of a queue directly under the root. */
    public static final int ROOT = -1;

    private final List<QueueInfo> queues = new ArrayList<>();
    private final List<Integer> parents = new ArrayList<>();
    private final List<List<Integer>> children = new ArrayList<>();
    private final List<Integer> roots = new ArrayList<>();
    private final Map<String, Integer> byName = new HashMap<>();

    /**
     * The tree of the given queues: a queue whose parent is missing, or that is in a cycle of parents, is left out
     * (the first of a repeated name counts).
     */
    public QueueTree(List<QueueInfo> given) {
        Map<String, QueueInfo> named = new LinkedHashMap<>();
        given.forEach(queue -> named.putIfAbsent(queue.name(), queue));
        Map<String, List<QueueInfo>> childrenOf = new HashMap<>();
        for (QueueInfo queue : named.values()) {
            if (queue.parent() == null) {
                add(queue, ROOT, childrenOf);
            } else if (named.containsKey(queue.parent())) {
                childrenOf.computeIfAbsent(queue.parent(), p -> new ArrayList<>()).add(queue);
            }
        }
        // Breadth first from the roots: a queue is reached only through its parent, so one in a cycle never is.
        for (int i = 0; i < queues.size(); i++) {
            for (QueueInfo child : childrenOf.getOrDefault(queues.get(i).name(), List.of())) {
                add(child, i, childrenOf);
            }
        }
    }

    private void add(QueueInfo queue, int parent, Map<String, List<QueueInfo>> childrenOf) {
        int index = queues.size();
        queues.add(queue);
        parents.add(parent);
        children.add(new ArrayList<>());
        byName.put(queue.name(), index);
        (parent == ROOT ? roots : children.get(parent)).add(index);
    }

    /** How many queues are in the tree. */
    public int size() {
        return queues.size();
    }

    /** The queue at an index. */
    public QueueInfo queue(int index) {
        return queues.get(index);
    }

    /** The index of the queue's parent, {@link #ROOT} for a queue directly under the root. */
    public int parent(int index) {
        return parents.get(index);
    }

    /** The children of a queue, or of the root for {@link #ROOT}. */
    public List<Integer> children(int index) {
        return index == ROOT ? roots : children.get(index);
    }

    /** Whether the queue has no child queue: only a leaf holds gangs. */
    public boolean leaf(int index) {
        return children.get(index).isEmpty();
    }

    /** The queue's index, or -1 if it is not in the tree. */
    int indexOf(String name) {
        Integer index = byName.get(name);
        return index == null ? -1 : index;
    }

    /** The queue and its ancestors, the queue first. */
    public List<Integer> pathUp(int index) {
        List<Integer> path = new ArrayList<>();
        for (int q = index; q != ROOT; q = parent(q)) {
            path.add(q);
        }
        return path;
    }

    /**
     * The two queues' ancestors (or themselves) just below their common ancestor, where reclaim compares
     * them: {@code [a's side, b's side]}; {@code null} when one is the other's ancestor.
     */
    public int[] sidesBelowCommonAncestor(int a, int b) {
        List<Integer> upA = pathUp(a);
        List<Integer> upB = pathUp(b);
        int i = upA.size() - 1;
        int j = upB.size() - 1;
        while (i >= 0 && j >= 0 && upA.get(i).equals(upB.get(j))) {
            i--;
            j--;
        }
        return i < 0 || j < 0 ? null : new int[]{upA.get(i), upB.get(j)};
    }
}
