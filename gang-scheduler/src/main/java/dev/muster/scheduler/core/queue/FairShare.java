package dev.muster.scheduler.core.queue;

import dev.muster.scheduler.core.model.QueueInfo;
import dev.muster.scheduler.core.model.ResourceVector;

import java.util.Arrays;
import java.util.List;

/**
 * Fair shares by hierarchical water-filling, per resource: the root's entitlement is the cluster's
 * allocatable; siblings split their parent's entitlement in proportion to their weights, each capped at
 * min(its demand, its limit) and raised to its guarantee as far as it asks (min(guarantee, demand)); what
 * a capped sibling does not take goes to the others. What no queue asks for stays unassigned, and
 * admission lends it to whoever fits (a queue may then hold more than its fair share).
 *
 * <p>Hand-written: the water level of a few siblings is a sort of their breakpoints and one interpolation,
 * smaller than any solver library's set-up. Shares are kept as doubles, so that a split such as 32 GPUs
 * in three is exact enough to compare shares, and rounded down only for display.
 */
final class FairShare {
    private FairShare() {
    }

    /**
     * Per queue of the tree (by index) and per resource dimension, its fair share.
     *
     * @param capacity per dimension, what the schedulable nodes offer
     * @param demand   per queue and dimension, its subtree's demand
     */
    static double[][] compute(QueueTree tree, long[] capacity, long[][] demand) {
        double[][] fair = new double[tree.size()][capacity.length];
        for (int d = 0; d < capacity.length; d++) {
            if (d == ResourceVector.PODS_DIM) {
                continue;
            }
            split(tree, QueueTree.ROOT, capacity[d], d, demand, fair);
        }
        return fair;
    }

    private static void split(QueueTree tree, int parent, double entitlement, int dim, long[][] demand,
                              double[][] fair) {
        List<Integer> children = tree.children(parent);
        int n = children.size();
        if (n == 0) {
            return;
        }
        double[] weight = new double[n];
        double[] floor = new double[n];
        double[] cap = new double[n];
        for (int i = 0; i < n; i++) {
            QueueInfo queue = tree.queue(children.get(i));
            weight[i] = queue.weight();
            double asked = demand[children.get(i)][dim];
            cap[i] = Math.min(asked, limit(queue, dim));
            floor[i] = Math.min(queue.guarantee().at(dim), cap[i]);
        }
        double[] levels = waterFill(entitlement, weight, floor, cap);
        for (int i = 0; i < n; i++) {
            fair[children.get(i)][dim] = levels[i];
            split(tree, children.get(i), levels[i], dim, demand, fair);
        }
    }

    /** The queue's limit on one resource (zero caps too); unbounded when its limit does not name the resource. */
    static double limit(QueueInfo queue, int dim) {
        return queue.limits(ResourceVector.nameOf(dim)) ? queue.limit().at(dim) : Double.POSITIVE_INFINITY;
    }

    /**
     * Splits the entitlement: each gets max(floor, min(cap, level × weight)) for the one level at which
     * the parts add up to the entitlement; everyone its cap when the caps add up to less; floors scaled
     * down when they add up to more (guarantees promised beyond what the cluster has).
     */
    static double[] waterFill(double entitlement, double[] weight, double[] floor, double[] cap) {
        int n = weight.length;
        double caps = Arrays.stream(cap).sum();
        if (caps <= entitlement) {
            return cap.clone();
        }
        double floors = Arrays.stream(floor).sum();
        if (floors >= entitlement) {
            double[] scaled = new double[n];
            for (int i = 0; i < n; i++) {
                scaled[i] = floors == 0 ? 0 : floor[i] * entitlement / floors;
            }
            return scaled;
        }
        double[] breakpoints = new double[2 * n];
        for (int i = 0; i < n; i++) {
            breakpoints[2 * i] = floor[i] / weight[i];
            breakpoints[2 * i + 1] = cap[i] / weight[i];
        }
        Arrays.sort(breakpoints);
        double low = 0;
        double lowSum = total(0, weight, floor, cap);
        for (double level : breakpoints) {
            double sum = total(level, weight, floor, cap);
            if (sum >= entitlement) {
                // The total is linear between two breakpoints.
                double at = sum == lowSum ? level : low + (level - low) * (entitlement - lowSum) / (sum - lowSum);
                return parts(at, weight, floor, cap);
            }
            low = level;
            lowSum = sum;
        }
        return cap.clone();
    }

    private static double total(double level, double[] weight, double[] floor, double[] cap) {
        double sum = 0;
        for (double part : parts(level, weight, floor, cap)) {
            sum += part;
        }
        return sum;
    }

    private static double[] parts(double level, double[] weight, double[] floor, double[] cap) {
        double[] parts = new double[weight.length];
        for (int i = 0; i < weight.length; i++) {
            parts[i] = Math.max(floor[i], Math.min(cap[i], level * weight[i]));
        }
        return parts;
    }
}
