package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.cluster.NodeState;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.PodShape;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One cycle's {@link ShapeIndex} per pod shape, built on first use and kept for every gang of the cycle,
 * so that choosing a node costs O(log n) instead of a scan of all n nodes.
 */
final class ShapeIndexes {
    /** Shape indexes kept per cycle; each holds a few arrays of the node count, so their number is capped. */
    private static final int MAX_SHAPE_INDEXES = 64;

    private final NodeState[] nodes;
    private final NodeScoring scoring;
    private final NodeChanges changes;
    /** Whether some node has a PreferNoSchedule taint: a pass over every node, so once per cycle. */
    private final boolean preferNoScheduleTaints;
    private final Map<PodShape, ShapeIndex> indexes = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<PodShape, ShapeIndex> eldest) {
            return size() > MAX_SHAPE_INDEXES;
        }
    };
    private ShapeIndex lastIndex;

    ShapeIndexes(NodeState[] nodes, NodeScoring scoring, NodeChanges changes) {
        this.nodes = nodes;
        this.scoring = scoring;
        this.changes = changes;
        this.preferNoScheduleTaints = NodePreferences.anyPreferNoSchedule(nodes);
    }

    /** The index of the pod's shape, caught up with every change so far. */
    ShapeIndex of(PodInfo pod) {
        ShapeIndex index = indexOf(pod);
        index.catchUp(changes);
        return index;
    }

    /**
     * The pods per shape index, each index caught up with every change so far.
     *
     * @param task only the pods of this task; {@code null} for all
     */
    Map<ShapeIndex, int[]> count(List<PodInfo> pods, String task) {
        // In the order the gang's pods show the shapes, not by identity hash: a rejection explains the shape
        // short of the most slots, the first of those tied, and must say the same from one cycle to the next.
        Map<ShapeIndex, int[]> counts = new LinkedHashMap<>();
        for (PodInfo pod : pods) {
            if (task == null || pod.task().equals(task)) {
                counts.computeIfAbsent(indexOf(pod), i -> new int[1])[0]++;
            }
        }
        counts.keySet().forEach(index -> index.catchUp(changes));
        return counts;
    }

    private ShapeIndex indexOf(PodInfo pod) {
        ShapeIndex last = lastIndex;
        // Pods of a gang mostly come in runs of one shape: comparing with the last spares a hash lookup.
        if (last != null && last.shape().requests().equals(pod.requests())
                && last.shape().constraints().equals(pod.constraints())) {
            return last;
        }
        PodShape shape = pod.shape();
        ShapeIndex index = indexes.get(shape);
        if (index == null) {
            index = new ShapeIndex(shape, nodes, scoring, changes, preferNoScheduleTaints);
            indexes.put(shape, index);
        }
        lastIndex = index;
        return index;
    }
}
