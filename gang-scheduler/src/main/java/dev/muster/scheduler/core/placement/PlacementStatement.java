package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.cluster.NodeState;
import dev.muster.scheduler.core.dra.DeviceAllocation;
import dev.muster.scheduler.core.dra.DeviceLedger;
import dev.muster.scheduler.core.model.PodInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The log of what one gang's trial does to a {@link ClusterSnapshot}, in the spirit of the session
 * {@code Statement} of Volcano: each operation changes the snapshot at once, so that later operations
 * and other shapes' indexes see it, and is recorded, so that {@link #discard()} can undo the lot in
 * reverse order and leave the snapshot exactly as before. A gang is thereby placed all or nothing.
 *
 * <ul>
 *   <li>{@link #allocate} places a pending pod on a node;</li>
 *   <li>{@link #evict} frees the room a pod bound to a node takes, as preemption will to make room for
 *       a gang, and the devices of its claims that no pod left uses ({@link DeviceLedger#evict}); nothing is
 *       deleted until the caller acts on a committed eviction;</li>
 *   <li>{@link #allocateDevices} records a claim's device allocation in the cycle's {@link DeviceLedger},
 *       so a discarded gang gives its devices back.</li>
 * </ul>
 *
 * <p>Every change is also written to the cycle's {@link NodeChanges}, undoing included, so the shape
 * indexes rescore the nodes touched, and to its {@link PodLayout}, so inter-pod terms see the gang's
 * pods placed so far and none once discarded. A trial can also roll back to a {@link #mark()} and go on, as it
 * does for a sub-group that does not fit whole. A statement ends with {@link #commit()} or {@link #discard()};
 * after that it takes no more operations. Not thread-safe: the cycle thread owns it.
 */
public final class PlacementStatement {
    private final NodeChanges changes;
    private final PodLayout layout;
    private final DeviceLedger devices;
    private final List<Undoable> operations = new ArrayList<>();
    private boolean closed;

    /**
     * A statement on the nodes of a snapshot whose changes the cycle's shape indexes read from
     * {@code changes} and its inter-pod filters from {@code layout}.
     */
    PlacementStatement(NodeChanges changes, PodLayout layout) {
        this(changes, layout, DeviceLedger.empty());
    }

    /** A statement that also allocates devices in the cycle's ledger. */
    PlacementStatement(NodeChanges changes, PodLayout layout, DeviceLedger devices) {
        this.changes = changes;
        this.layout = layout;
        this.devices = devices;
    }

    /** Places the pod on the node. */
    public void allocate(PodInfo pod, NodeState node) {
        apply(new Operation(true, pod, node));
    }

    /** Allocates devices to a claim of a pod this statement places. */
    void allocateDevices(String claimKey, DeviceAllocation allocation) {
        requireOpen();
        devices.allocate(claimKey, allocation);
        operations.add((forward, nodeChanges, podLayout) -> {
            if (forward) {
                devices.allocate(claimKey, allocation);
            } else {
                devices.release(claimKey);
            }
        });
    }

    /** Frees the room the pod, bound to the node, takes, and the devices only it (and pods evicted) uses. */
    public void evict(PodInfo pod, NodeState node) {
        apply(new Operation(false, pod, node));
        if (!pod.deviceClaims().isEmpty()) {
            Map<String, DeviceAllocation> freed = devices.evict(pod.namespace(), pod.name(), pod.deviceClaims());
            operations.add((forward, nodeChanges, podLayout) -> {
                if (forward) {
                    devices.evict(pod.namespace(), pod.name(), pod.deviceClaims());
                } else {
                    devices.unevict(pod.namespace(), pod.name(), freed);
                }
            });
        }
    }

    /** A point to {@linkplain #rollBackTo roll back to}: the operations so far. */
    int mark() {
        requireOpen();
        return operations.size();
    }

    /**
     * Undoes the operations after the mark, latest first, and keeps the statement open: a sub-group of the gang
     * that does not fit whole is taken back, and the gang's trial goes on.
     */
    void rollBackTo(int mark) {
        requireOpen();
        for (int i = operations.size() - 1; i >= mark; i--) {
            operations.remove(i).change(false, changes, layout);
        }
    }

    /** Keeps every operation on the snapshot. */
    public void commit() {
        close();
        operations.clear();
    }

    /** Undoes every operation, latest first, leaving the snapshot as it was before the first. */
    public void discard() {
        close();
        for (int i = operations.size() - 1; i >= 0; i--) {
            operations.get(i).change(false, changes, layout);
        }
        operations.clear();
    }

    private void apply(Operation op) {
        requireOpen();
        op.change(true, changes, layout);
        operations.add(op);
    }

    private void close() {
        requireOpen();
        closed = true;
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the statement was already committed or discarded");
        }
    }

    /** A change the statement can undo. */
    private interface Undoable {
        /** Does the change, or undoes it. */
        void change(boolean forward, NodeChanges changes, PodLayout layout);
    }

    /**
     * One operation on one node.
     *
     * @param adds whether it adds the pod's requests to the node (allocate) or takes them off (evict)
     */
    private record Operation(boolean adds, PodInfo pod, NodeState node) implements Undoable {
        @Override
        public void change(boolean forward, NodeChanges changes, PodLayout layout) {
            if (adds == forward) {
                node.place(pod.requests());
                layout.added(pod, node.index());
            } else {
                node.unplace(pod.requests());
                layout.removed(pod, node.index());
            }
            changes.record(node.index());
        }
    }
}
