package dev.muster.scheduler.core.queue;

import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.placement.GangTrial;

/**
 * Volcano's enqueue check of a PodGroup's {@code minResources}, which Muster honours the same way: a gang
 * with no pod bound yet is not tried while the schedulable nodes together have less free of some resource
 * than its {@code minResources} names (its queue's limit counts them too, see {@link QueueLedger#askedBy}).
 * A sum is the weaker test of the two Muster makes: a gang that passes still places node by node, every
 * predicate included; the gate is for workloads whose pods come later than the gang starts, as a Spark
 * driver's executors do, and whose group names what they will need.
 */
public final class MinResourcesGate {

    private MinResourcesGate() {
    }

    /**
     * Why the gang may not start yet, naming the resource and both amounts; {@code null} when it may (no
     * {@code minResources}, a pod already bound, or enough free).
     *
     * @param trial the cycle's trial runner, whose nodes have this cycle's placements so far; summed only for a
     *              gang the gate applies to
     */
    public static String shortfall(PendingGang gang, GangTrial trial) {
        ResourceVector min = gang.gang().minResources();
        if (gang.bound() > 0 || min.length() == 0) {
            return null;
        }
        long[] free = trial.freeRoom();
        for (int d = 0; d < min.length(); d++) {
            long wanted = min.at(d);
            long have = d < free.length ? free[d] : 0;
            if (wanted > have) {
                String resource = ResourceVector.nameOf(d);
                return "The PodGroup's minResources asks for " + ResourceVector.quantity(resource, wanted) + " "
                        + resource + " and the schedulable nodes have " + ResourceVector.quantity(resource, have)
                        + " free in all; none of its pods is placed until they have (Volcano's enqueue check).";
            }
        }
        return null;
    }
}
