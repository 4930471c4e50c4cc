package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.cluster.NodeState;
import dev.muster.scheduler.core.model.PodShape;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.model.UnschedulableMessage;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * For one pod shape within one cycle: which nodes pass its placement constraints, how many pods of the
 * shape each node still takes, their total, and a max-heap of nodes by score, so that the best node for
 * the next pod is found in O(log n) rather than by scanning every node.
 *
 * <p>Entries are never updated in place. When a node changes (read from {@link NodeChanges}), it is
 * rescored and pushed again with its new version; entries of older versions are dropped when they reach
 * the top. This works for any score that depends only on the node's own state, whichever way it moves.
 *
 * <p>A pod with inter-pod terms ({@link PodChecks}) takes the best node that also passes its checks:
 * the heap is walked best-first without being changed, so the cost grows with the nodes ranked above
 * the answer that the checks reject, not with the node count.
 */
final class ShapeIndex {
    private final PodShape shape;
    private final NodeState[] nodes;
    private final NodeScoring scoring;
    /** Per node, the first filter that keeps the shape off it regardless of capacity; null if none. */
    private final String[] rejections;
    private final boolean[] eligible;
    private final int[] slots;
    private final int[] version;
    /**
     * Per node, its preference score on top of its resource score; {@code null} when the shape has no
     * preferences the nodes tell apart, and the resource score alone ranks them as before.
     */
    private final long[] preference;
    /** What turns the resource score into kube-scheduler's 0-100 when preferences are added to it. */
    private final double resourceScale;
    private long totalSlots;
    private int cursor;

    private double[] heapScore;
    private int[] heapNode;
    private int[] heapVersion;
    private int heapSize;

    /** Heap positions still to visit in a best-first walk, itself a heap by the entries' rank. */
    private int[] frontier = new int[16];
    private int frontierSize;

    private UnschedulableMessage misfit;
    private int misfitVersion = -1;
    private UnschedulableMessage misfitWhenFull;
    private int misfitWhenFullVersion = -1;
    /**
     * From the first {@link #misfitWhenFull} on, per eligible node what it lacks once its slots are filled
     * (bit d: dimension d), and per dimension how many nodes lack it, brought up to date at the next
     * explanation for the nodes {@link #catchUp} rescored since: backfill and victim searches change and
     * restore nodes many times between rejections, and explaining afresh would scan every node. {@code null}
     * before, and for requests of 64 dimensions or more.
     */
    private long[] shortWhenFull;
    private int[] shortWhenFullByDimension;
    private Map<String, Integer> rejectionCounts;
    /** The nodes rescored since the tallies were last brought up to date, each once. */
    private int[] untallied;
    private int untalliedCount;
    private boolean[] isUntallied;

    /**
     * @param preferNoScheduleTaints whether some node has a {@code PreferNoSchedule} taint, which every
     *                               shape's score must then weigh
     */
    ShapeIndex(PodShape shape, NodeState[] nodes, NodeScoring scoring, NodeChanges changes,
               boolean preferNoScheduleTaints) {
        this.shape = shape;
        this.nodes = nodes;
        this.scoring = scoring;
        this.rejections = new String[nodes.length];
        this.eligible = new boolean[nodes.length];
        this.slots = new int[nodes.length];
        this.version = new int[nodes.length];
        int capacity = 16;
        heapScore = new double[capacity];
        heapNode = new int[capacity];
        heapVersion = new int[capacity];
        ResourceVector requests = shape.requests();
        for (int n = 0; n < nodes.length; n++) {
            rejections[n] = shape.constraints().rejection(nodes[n].info());
            eligible[n] = rejections[n] == null;
        }
        this.preference = NodePreferences.of(shape.constraints(), nodes, eligible, preferNoScheduleTaints);
        this.resourceScale = 100.0 / NodeState.resourcesScored(requests);
        for (int n = 0; n < nodes.length; n++) {
            version[n] = changes.version(n);
            if (eligible[n]) {
                slots[n] = nodes[n].slotsFor(requests);
                totalSlots += slots[n];
                if (slots[n] > 0) {
                    append(score(n), n, version[n]);
                }
            }
        }
        for (int i = heapSize / 2 - 1; i >= 0; i--) {
            siftDown(i);
        }
        cursor = changes.size();
    }

    PodShape shape() {
        return shape;
    }

    /**
     * The node's score for one more pod of the shape: the resource score, or with preferences, as
     * kube-scheduler adds its plugins' scores: the resource score on 0-100 plus the weighted preferences.
     */
    private double score(int n) {
        double resources = scoring.score(nodes[n], shape.requests());
        return preference == null ? resources : resources * resourceScale + preference[n];
    }

    /** Rescores the nodes that changed since the last call. */
    void catchUp(NodeChanges changes) {
        ResourceVector requests = shape.requests();
        for (; cursor < changes.size(); cursor++) {
            int n = changes.nodeAt(cursor);
            int current = changes.version(n);
            if (!eligible[n] || version[n] == current) {
                continue;
            }
            version[n] = current;
            int now = nodes[n].slotsFor(requests);
            totalSlots += now - slots[n];
            slots[n] = now;
            if (shortWhenFull != null && !isUntallied[n]) {
                isUntallied[n] = true;
                untallied[untalliedCount++] = n;
            }
            if (now > 0) {
                append(score(n), n, current);
                siftUp(heapSize - 1);
            }
        }
    }

    /** The best node for one more pod of the shape, or -1 if none fits. Call {@link #catchUp} first. */
    int best() {
        while (heapSize > 0) {
            int n = heapNode[0];
            if (heapVersion[0] == version[n] && slots[n] > 0) {
                return n;
            }
            removeTop();
        }
        return -1;
    }

    /**
     * The best node for one more pod of the shape that passes the pod's checks, or -1 if none does: the
     * node a scan of every node would choose. Call {@link #catchUp} first.
     */
    int bestPassing(PodChecks checks) {
        int top = best();
        if (top < 0 || checks.passes(top)) {
            return top;
        }
        frontierSize = 0;
        pushChildren(0);
        while (frontierSize > 0) {
            int entry = popFrontier();
            int n = heapNode[entry];
            // An entry of an older version is skipped, but its children rank below it and may be current.
            if (heapVersion[entry] == version[n] && slots[n] > 0 && checks.passes(n)) {
                return n;
            }
            pushChildren(entry);
        }
        return -1;
    }

    /**
     * The best node for one more pod of the shape with scores that depend on the pods around a node
     * ({@link PodScore}: ScheduleAnyway topology spread, preferred inter-pod affinity): every node that
     * fits and passes the pod's checks ({@code null}: none) is a candidate, since those scores are
     * normalised over the candidates; each scores as in {@link #score} on kube-scheduler's 0-100
     * resource scale plus the pod's own scores; the first node by name wins ties. Only pods with such scores come here, so the heap's fast path stays as it was
     * for the rest. Returns -1 if no node is a candidate. Call {@link #catchUp} first.
     */
    int bestScored(PodChecks checks, List<PodScore> podScores) {
        int[] candidates = new int[nodes.length];
        int count = 0;
        for (int n = 0; n < nodes.length; n++) {
            if (eligible[n] && slots[n] > 0 && (checks == null || checks.passes(n))) {
                candidates[count++] = n;
            }
        }
        long[] podScore = new long[count];
        for (PodScore plugin : podScores) {
            plugin.addTo(candidates, count, podScore);
        }
        int best = -1;
        double bestScore = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < count; i++) {
            int n = candidates[i];
            double score = scoring.score(nodes[n], shape.requests()) * resourceScale
                    + (preference == null ? 0 : preference[n]) + podScore[i];
            // Candidates are in index (name) order, so only a strictly better score displaces the first.
            if (score > bestScore) {
                best = n;
                bestScore = score;
            }
        }
        return best;
    }

    /** Pods of the shape that the free capacity takes, summed over nodes. Call {@link #catchUp} first. */
    long totalSlots() {
        return totalSlots;
    }

    /**
     * Adds, per topology domain, the pods of the shape its nodes still take. Call {@link #catchUp} first.
     *
     * @param domainOf  per node index, its domain's number, or -1 if it has none
     * @param perDomain totals per domain number, added to
     */
    void addSlotsByDomain(int[] domainOf, long[] perDomain) {
        for (int n = 0; n < nodes.length; n++) {
            if (slots[n] > 0 && domainOf[n] >= 0) {
                perDomain[domainOf[n]] += slots[n];
            }
        }
    }

    /** Why a pod of the shape fits nowhere now; computed once per state of the snapshot. */
    UnschedulableMessage misfit(NodeChanges changes) {
        if (misfitVersion != changes.size()) {
            misfit = explain(null);
            misfitVersion = changes.size();
        }
        return misfit;
    }

    /**
     * Why a pod of the shape with these checks fits nowhere now; a node counts under its first failing
     * filter in kube-scheduler's order (node filters, host ports, resources, inter-pod affinity).
     */
    UnschedulableMessage misfit(PodChecks checks) {
        Map<String, Integer> counts = new HashMap<>();
        ResourceVector requests = shape.requests();
        int[] shortByDimension = new int[Math.max(requests.length(), ResourceVector.PODS_DIM + 1)];
        for (int n = 0; n < nodes.length; n++) {
            String reason = rejections[n];
            if (reason == null) {
                reason = checks.rejection(n, true);
            }
            if (reason == null && slots[n] == 0) {
                nodes[n].countShortfalls(requests, 0, shortByDimension);
            } else if (reason == null) {
                reason = checks.rejection(n, false);
            }
            if (reason != null) {
                counts.merge(reason, 1, Integer::sum);
            }
        }
        addShortfalls(shortByDimension, counts);
        return new UnschedulableMessage(nodes.length, counts);
    }

    /**
     * Why the pod after the free capacity's {@link #totalSlots} pods of the shape would fit nowhere;
     * computed once per state of the snapshot, since every gang of the shape that is rejected asks.
     */
    UnschedulableMessage misfitWhenFull(NodeChanges changes) {
        if (misfitWhenFullVersion != changes.size()) {
            misfitWhenFull = shape.requests().length() < Long.SIZE ? tallyWhenFull() : explain(slots);
            misfitWhenFullVersion = changes.size();
        }
        return misfitWhenFull;
    }

    /** {@link #explain} of the full nodes from the tallies, made on first use. Call {@link #catchUp} first. */
    private UnschedulableMessage tallyWhenFull() {
        ResourceVector requests = shape.requests();
        if (shortWhenFull != null) {
            for (int i = 0; i < untalliedCount; i++) {
                int n = untallied[i];
                tallyWhenFull(n, -1);
                shortWhenFull[n] = nodes[n].shortfalls(requests, slots[n]);
                tallyWhenFull(n, 1);
                isUntallied[n] = false;
            }
            untalliedCount = 0;
        } else {
            untallied = new int[nodes.length];
            isUntallied = new boolean[nodes.length];
            shortWhenFull = new long[nodes.length];
            shortWhenFullByDimension = new int[Math.max(requests.length(), ResourceVector.PODS_DIM + 1)];
            rejectionCounts = new HashMap<>();
            for (int n = 0; n < nodes.length; n++) {
                if (rejections[n] != null) {
                    rejectionCounts.merge(rejections[n], 1, Integer::sum);
                } else {
                    shortWhenFull[n] = nodes[n].shortfalls(requests, slots[n]);
                    tallyWhenFull(n, 1);
                }
            }
        }
        Map<String, Integer> counts = new HashMap<>(rejectionCounts);
        addShortfalls(shortWhenFullByDimension, counts);
        return new UnschedulableMessage(nodes.length, counts);
    }

    private void tallyWhenFull(int node, int sign) {
        long shortfalls = shortWhenFull[node];
        for (int d = 0; shortfalls != 0; d++, shortfalls >>>= 1) {
            if ((shortfalls & 1) != 0) {
                shortWhenFullByDimension[d] += sign;
            }
        }
    }

    /**
     * Why one more pod of the shape fits no node once {@code filledWith[n]} pods of it were added to node
     * n ({@code null}: none added); a node counts under its first failing filter, or under every resource
     * it lacks, as in kube-scheduler.
     */
    private UnschedulableMessage explain(int[] filledWith) {
        Map<String, Integer> counts = new HashMap<>();
        ResourceVector requests = shape.requests();
        int[] shortByDimension = new int[Math.max(requests.length(), ResourceVector.PODS_DIM + 1)];
        for (int n = 0; n < nodes.length; n++) {
            if (rejections[n] != null) {
                counts.merge(rejections[n], 1, Integer::sum);
            } else {
                nodes[n].countShortfalls(requests, filledWith == null ? 0 : filledWith[n], shortByDimension);
            }
        }
        addShortfalls(shortByDimension, counts);
        return new UnschedulableMessage(nodes.length, counts);
    }

    private static void addShortfalls(int[] shortByDimension, Map<String, Integer> counts) {
        for (int d = 0; d < shortByDimension.length; d++) {
            if (shortByDimension[d] > 0) {
                counts.put(d == ResourceVector.PODS_DIM ? UnschedulableMessage.TOO_MANY_PODS
                        : UnschedulableMessage.INSUFFICIENT + ResourceVector.nameOf(d), shortByDimension[d]);
            }
        }
    }

    private void pushChildren(int entry) {
        for (int child = 2 * entry + 1; child <= 2 * entry + 2 && child < heapSize; child++) {
            if (frontierSize == frontier.length) {
                frontier = Arrays.copyOf(frontier, frontierSize * 2);
            }
            int i = frontierSize++;
            frontier[i] = child;
            while (i > 0 && before(frontier[i], frontier[(i - 1) / 2])) {
                swapFrontier(i, (i - 1) / 2);
                i = (i - 1) / 2;
            }
        }
    }

    private int popFrontier() {
        int top = frontier[0];
        frontier[0] = frontier[--frontierSize];
        int i = 0;
        while (true) {
            int left = 2 * i + 1;
            if (left >= frontierSize) {
                return top;
            }
            int child = left + 1 < frontierSize && before(frontier[left + 1], frontier[left]) ? left + 1 : left;
            if (!before(frontier[child], frontier[i])) {
                return top;
            }
            swapFrontier(i, child);
            i = child;
        }
    }

    private void swapFrontier(int a, int b) {
        int entry = frontier[a];
        frontier[a] = frontier[b];
        frontier[b] = entry;
    }

    private void append(double score, int node, int nodeVersion) {
        if (heapSize == heapNode.length) {
            int capacity = heapSize * 2;
            heapScore = Arrays.copyOf(heapScore, capacity);
            heapNode = Arrays.copyOf(heapNode, capacity);
            heapVersion = Arrays.copyOf(heapVersion, capacity);
        }
        heapScore[heapSize] = score;
        heapNode[heapSize] = node;
        heapVersion[heapSize] = nodeVersion;
        heapSize++;
    }

    private void removeTop() {
        heapSize--;
        if (heapSize > 0) {
            move(heapSize, 0);
            siftDown(0);
        }
    }

    /** Whether entry a ranks before entry b: higher score, then lower node index (name order). */
    private boolean before(int a, int b) {
        return heapScore[a] > heapScore[b] || heapScore[a] == heapScore[b] && heapNode[a] < heapNode[b];
    }

    private void siftUp(int i) {
        while (i > 0) {
            int parent = (i - 1) / 2;
            if (!before(i, parent)) {
                return;
            }
            swap(i, parent);
            i = parent;
        }
    }

    private void siftDown(int i) {
        while (true) {
            int left = 2 * i + 1;
            if (left >= heapSize) {
                return;
            }
            int child = left + 1 < heapSize && before(left + 1, left) ? left + 1 : left;
            if (!before(child, i)) {
                return;
            }
            swap(i, child);
            i = child;
        }
    }

    private void move(int from, int to) {
        heapScore[to] = heapScore[from];
        heapNode[to] = heapNode[from];
        heapVersion[to] = heapVersion[from];
    }

    private void swap(int a, int b) {
        double score = heapScore[a];
        int node = heapNode[a];
        int nodeVersion = heapVersion[a];
        move(b, a);
        heapScore[b] = score;
        heapNode[b] = node;
        heapVersion[b] = nodeVersion;
    }
}
