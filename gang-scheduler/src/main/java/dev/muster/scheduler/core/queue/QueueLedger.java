package dev.muster.scheduler.core.queue;

import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.cluster.NodeState;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.model.RunningGang;
import dev.muster.scheduler.core.placement.GangPlacement;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One cycle's accounts of the queues: per queue (a parent's cover its subtree) and per resource, what is
 * allocated, what is demanded and the fair share, kept as arrays by dimension because the cycle reads
 * shares after every gang it places. Allocation follows what the cycle places and evicts; demand and
 * fair shares are fixed at the start of the cycle.
 */
public final class QueueLedger {
    private final QueueTree tree;
    /** The queue of every running and pending gang, by key. */
    private final Map<GroupKey, String> queueOf = new HashMap<>();
    /** Per pending gang, {@link #askedBy}. */
    private final Map<GroupKey, long[]> asked = new HashMap<>();
    private final int dims;
    private final long[][] allocated;
    private final long[][] demand;
    private final double[][] fair;
    /** What the schedulable nodes have allocatable together, per dimension. */
    private final long[] capacity;
    /** What the schedulable nodes have free at the start of the cycle, per dimension. */
    private final long[] free;
    /** Per dimension, whether the queues together demand more than the schedulable nodes have. */
    private final boolean[] scarce;
    private final int[] pendingGangs;
    private final int[] runningGangs;

    /**
     * Counts what the snapshot's bound pods of known gangs request (a pod counts for the queue of its
     * gang, running or pending) and what the pending gangs ask for, then computes fair shares.
     */
    public QueueLedger(QueueTree tree, ClusterSnapshot snapshot, Collection<PendingGang> pending,
                Map<GroupKey, RunningGang> running) {
        this.tree = tree;
        running.forEach((key, gang) -> queueOf.put(key, gang.gang().queue()));
        pending.forEach(gang -> queueOf.put(gang.gang().key(), gang.gang().queue()));
        this.dims = ResourceVector.dimensionCount();
        int n = tree.size();
        allocated = new long[n][dims];
        demand = new long[n][dims];
        pendingGangs = new int[n];
        runningGangs = new int[n];
        capacity = new long[dims];
        free = new long[dims];
        // Every bound pod is looked at: summed per leaf first, a gang's pods, which lie next to each other on
        // a node, looked up once and added in runs of one shape, before the sums are added up the tree.
        long[][] byLeaf = new long[n + 1][dims];
        GroupKey lastGang = null;
        int lastLeaf = -1;
        ResourceVector run = null;
        long length = 0;
        for (NodeState node : snapshot.nodeArray()) {
            if (node.info().schedulable()) {
                add(capacity, node.info().allocatable(), 1);
                add(free, node.info().allocatable(), 1);
                for (int d = 0; d < dims; d++) {
                    free[d] -= node.requested(d);
                }
            }
            for (PodInfo pod : node.snapshotPods()) {
                GroupKey gang = pod.group();
                if (gang != lastGang && !Objects.equals(gang, lastGang)) {
                    addRun(byLeaf, lastLeaf, run, length);
                    run = null;
                    lastGang = gang;
                    lastLeaf = leafOfGang(gang);
                }
                if (pod.requests() != run) {
                    addRun(byLeaf, lastLeaf, run, length);
                    run = pod.requests();
                    length = 0;
                }
                length++;
            }
        }
        addRun(byLeaf, lastLeaf, run, length);
        for (int leaf = 0; leaf < n; leaf++) {
            if (tree.leaf(leaf)) {
                for (int q = leaf; q != QueueTree.ROOT; q = tree.parent(q)) {
                    for (int d = 0; d < dims; d++) {
                        allocated[q][d] += byLeaf[leaf][d];
                    }
                }
            }
        }
        running.values().forEach(gang -> count(runningGangs, leafOf(gang.gang().queue())));
        for (PendingGang gang : pending) {
            int leaf = leafOf(gang.gang().queue());
            count(pendingGangs, leaf);
            if (leaf >= 0) {
                long[] asked = askedBy(gang);
                for (int q = leaf; q != QueueTree.ROOT; q = tree.parent(q)) {
                    for (int d = 0; d < dims; d++) {
                        demand[q][d] += asked[d];
                    }
                }
            }
        }
        for (int q = 0; q < n; q++) {
            for (int d = 0; d < dims; d++) {
                demand[q][d] += allocated[q][d];
            }
        }
        fair = FairShare.compute(tree, capacity, demand);
        scarce = new boolean[dims];
        for (int d = 0; d < dims; d++) {
            long demanded = 0;
            for (int top : tree.children(QueueTree.ROOT)) {
                demanded += demand[top][d];
            }
            scarce[d] = demanded > capacity[d];
        }
    }

    /**
     * Adds a run of {@code length} pods requesting {@code run} to the leaf's sum; pods of no queue go to the spare
     * last row.
     */
    private static void addRun(long[][] byLeaf, int leaf, ResourceVector run, long length) {
        if (run != null) {
            add(byLeaf[leaf >= 0 ? leaf : byLeaf.length - 1], run, length);
        }
    }

    private void count(int[] counts, int leaf) {
        for (int q = leaf; q != QueueTree.ROOT; q = tree.parent(q)) {
            counts[q]++;
        }
    }

    /** The queue tree the accounts are kept for; queue indexes are its. */
    public QueueTree tree() {
        return tree;
    }

    /** The leaf queue index of a running or pending gang of the cycle, or -1 when it has none. */
    public int leafOfGang(GroupKey gang) {
        return leafOf(queueOf.get(gang));
    }

    /** The index of the named leaf queue, or -1 when gangs cannot be queued there. */
    public int leafOf(String queue) {
        int index = queue == null ? -1 : tree.indexOf(queue);
        return index >= 0 && tree.leaf(index) ? index : -1;
    }

    /** Adds what a placement or admission places to its gang's queue and that queue's ancestors. */
    public void allocate(GangPlacement placed) {
        int leaf = leafOf(placed.gang().queue());
        if (leaf >= 0) {
            placed.placements().forEach(p -> allocate(leaf, p.pod().requests(), 1));
        }
    }

    /** Adds (sign 1) or removes (sign -1) requests from the leaf and its ancestors. */
    public void allocate(int leaf, ResourceVector requests, int sign) {
        for (int q = leaf; q != QueueTree.ROOT; q = tree.parent(q)) {
            add(allocated[q], requests, sign);
        }
    }

    /** What the queue's subtree has allocated of one resource dimension, placements of this cycle included. */
    public long allocated(int queue, int dim) {
        return allocated[queue][dim];
    }

    /** What the schedulable nodes have allocatable together of one resource dimension. */
    public long capacity(int dim) {
        return capacity[dim];
    }

    /** The queue's fair share of one resource dimension, fixed at the start of the cycle. */
    public double fair(int queue, int dim) {
        return fair[queue][dim];
    }

    /** How many resource dimensions the accounts cover. */
    public int dims() {
        return dims;
    }

    /**
     * The resources contended for the gang: those the schedulable nodes together have less of free than
     * its pods (those to place and those its workload will create) request. When there is enough of each
     * in total and the gang waits only because the free room is split across nodes, every resource it
     * requests that the queues together demand more of than the nodes have is contended, since no one of
     * them can be singled out. A resource there is enough of for every queue's demand is never contended:
     * every queue's fair share of it is its demand, so no queue holds more than its fair share and any
     * victim requesting some would fall below it although the preemptor takes none of its share.
     */
    public boolean[] contendedFor(PendingGang gang) {
        long[] wanted = askedBy(gang);
        boolean[] contended = new boolean[dims];
        boolean any = false;
        for (int d = 0; d < dims; d++) {
            contended[d] = d != ResourceVector.PODS_DIM && wanted[d] > 0 && free[d] < wanted[d];
            any |= contended[d];
        }
        if (!any) {
            for (int d = 0; d < dims; d++) {
                contended[d] = d != ResourceVector.PODS_DIM && wanted[d] > 0 && scarce[d];
            }
        }
        return contended;
    }

    /**
     * What the gang's pods request together, those to place and those its workload will create, and for a
     * gang with no pod bound yet at least its {@code minResources} of each resource (what its workload will
     * need, of which only some pods may exist yet, as with a Spark driver before its executors); summed once
     * per cycle, since the order's limit checks and the reclaim rules ask again. Not to be changed.
     */
    public long[] askedBy(PendingGang gang) {
        return asked.computeIfAbsent(gang.gang().key(), key -> {
            long[] sum = requests(gang.pending());
            long[] expected = requests(gang.expected());
            for (int d = 0; d < sum.length; d++) {
                sum[d] += expected[d];
            }
            if (gang.bound() == 0) {
                ResourceVector min = gang.gang().minResources();
                for (int d = 0; d < sum.length; d++) {
                    sum[d] = Math.max(sum[d], min.at(d));
                }
            }
            return sum;
        });
    }

    /** Allocation over fair share on the dominant resource. */
    public double share(int queue) {
        return shareWith(queue, null, 0);
    }

    /**
     * The share the queue would have with {@code sign} times {@code delta} (per dimension) added to its
     * allocation.
     */
    public double shareWith(int queue, long[] delta, int sign) {
        double share = 0;
        for (int d = 0; d < dims; d++) {
            if (d == ResourceVector.PODS_DIM) {
                continue;
            }
            long amount = allocated[queue][d] + (delta == null || d >= delta.length ? 0 : sign * delta[d]);
            if (amount <= 0) {
                continue;
            }
            share = Math.max(share, fair[queue][d] <= 0 ? Double.POSITIVE_INFINITY : amount / fair[queue][d]);
        }
        return share;
    }

    /** Whether the queue holds less of some resource than min(its guarantee, its demand). */
    public boolean belowGuarantee(int queue) {
        ResourceVector guarantee = tree.queue(queue).guarantee();
        for (int d = 0; d < dims; d++) {
            if (d != ResourceVector.PODS_DIM
                    && allocated[queue][d] < Math.min(guarantee.at(d), demand[queue][d])) {
                return true;
            }
        }
        return false;
    }

    /**
     * Why starting a gang with these requests in the leaf queue would take the leaf or an ancestor above
     * its limit, naming the queue, the resource and the numbers; {@code null} when it would not.
     */
    public String limitExceeded(int leaf, long[] asked) {
        for (int q = leaf; q != QueueTree.ROOT; q = tree.parent(q)) {
            for (int d = 0; d < asked.length && d < dims; d++) {
                long wanted = asked[d];
                if (d == ResourceVector.PODS_DIM || wanted <= 0) {
                    continue;
                }
                double limit = FairShare.limit(tree.queue(q), d);
                if (allocated[q][d] + wanted > limit) {
                    String resource = ResourceVector.nameOf(d);
                    String held = "Queue " + tree.queue(q).name() + " holds " + ResourceVector.quantity(resource, allocated[q][d])
                            + " " + resource + " of its limit of " + ResourceVector.quantity(resource, (long) limit)
                            + "; the gang requests " + ResourceVector.quantity(resource, wanted) + " more";
                    // Waiting for the queue's other gangs to finish would not help: say so rather than let it wait.
                    return held + (wanted > limit ? ", more than the whole limit: it cannot run in this queue unless "
                            + "the limit is raised." : ".");
                }
            }
        }
        return null;
    }

    /** Where the queue stands now. */
    public QueueStanding standing(int queue) {
        return new QueueStanding(tree.queue(queue).name(), vector(allocated[queue]), floor(fair[queue]),
                vector(demand[queue]), share(queue), pendingGangs[queue], runningGangs[queue]);
    }

    /** The sum of the pods' requests, per dimension. */
    public static long[] requests(Iterable<PodInfo> pods) {
        long[] sum = new long[ResourceVector.dimensionCount()];
        // A gang's pods come in runs of one shape: each run is added once, times its length.
        ResourceVector run = null;
        long length = 0;
        for (PodInfo pod : pods) {
            ResourceVector requests = pod.requests();
            if (requests == run || requests.equals(run)) {
                length++;
                continue;
            }
            if (run != null) {
                add(sum, run, length);
            }
            run = requests;
            length = 1;
        }
        if (run != null) {
            add(sum, run, length);
        }
        return sum;
    }

    /** Adds {@code times} the vector to the amounts; a negative {@code times} takes it off. */
    public static void add(long[] amounts, ResourceVector vector, long times) {
        for (int d = 0; d < vector.length() && d < amounts.length; d++) {
            amounts[d] += times * vector.at(d);
        }
    }

    static ResourceVector vector(long[] amounts) {
        ResourceVector.Builder builder = ResourceVector.builder();
        for (int d = 0; d < amounts.length; d++) {
            if (d != ResourceVector.PODS_DIM && amounts[d] > 0) {
                builder.set(ResourceVector.nameOf(d), amounts[d]);
            }
        }
        return builder.build();
    }

    private static ResourceVector floor(double[] amounts) {
        long[] rounded = new long[amounts.length];
        for (int d = 0; d < amounts.length; d++) {
            // A hair above the integer below absorbs the interpolation's rounding error (16 is 15.9999...).
            rounded[d] = (long) Math.floor(amounts[d] + 1e-9);
        }
        return vector(rounded);
    }
}
