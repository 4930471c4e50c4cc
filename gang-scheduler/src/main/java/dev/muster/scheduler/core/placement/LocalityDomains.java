package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.cluster.NodeState;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PlacementConstraints;
import dev.muster.scheduler.core.model.PodInfo;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Gang locality: the domains a topology key divides a snapshot's nodes into, which one a gang's quorum
 * is packed into, and the gang's pods pinned to it. Domains are bin-packed: of the domains that hold the
 * quorum, the one with the least room to spare, so that others stay free for big gangs.
 */
public final class LocalityDomains {
    private final NodeState[] nodes;
    private final String topologyKey;
    /** Computed on first use. */
    private TopologyDomains domains;

    /** @param topologyKey node label naming the domains */
    LocalityDomains(NodeState[] nodes, String topologyKey) {
        this.nodes = nodes;
        this.topologyKey = topologyKey;
    }

    /**
     * The domain whose free slots hold {@code needed} of the pods with the fewest free slots in all, or
     * {@code null} if none does.
     *
     * @param podsByShape the pods counted per shape index, each caught up
     */
    String tightestHolding(Map<ShapeIndex, int[]> podsByShape, int needed) {
        TopologyDomains domains = domains();
        long[] reachable = new long[domains.count()];
        long[] free = new long[domains.count()];
        for (Map.Entry<ShapeIndex, int[]> entry : podsByShape.entrySet()) {
            long[] slots = new long[domains.count()];
            entry.getKey().addSlotsByDomain(domains.byNode(), slots);
            for (int d = 0; d < slots.length; d++) {
                reachable[d] += Math.min(entry.getValue()[0], slots[d]);
                free[d] += slots[d];
            }
        }
        int best = -1;
        for (int d = 0; d < domains.count(); d++) {
            if (reachable[d] >= needed && (best < 0 || free[d] < free[best])) {
                best = d;
            }
        }
        return best < 0 ? null : domains.name(best);
    }

    /**
     * The domain of every node the snapshot has a pod of the gang on (bound or being bound), or
     * {@code null} if it has none there, or they are on nodes of more than one domain or without the key:
     * then no domain of this level holds the whole gang.
     */
    String boundDomain(GroupKey gang) {
        int found = -1;
        for (int n = 0; n < nodes.length; n++) {
            for (PodInfo pod : nodes[n].snapshotPods()) {
                if (pod.group().equals(gang)) {
                    int domain = domains().of(n);
                    if (domain < 0 || found >= 0 && domain != found) {
                        return null;
                    }
                    found = domain;
                }
            }
        }
        return found < 0 ? null : domains().name(found);
    }

    /**
     * The domain all the nodes are in, or {@code null} if they are in more than one or one is without the key.
     *
     * @param nodeIndexes indexes into the snapshot's nodes; not empty
     */
    String commonDomain(List<Integer> nodeIndexes) {
        int found = -1;
        for (int n : nodeIndexes) {
            int domain = domains().of(n);
            if (domain < 0 || found >= 0 && domain != found) {
                return null;
            }
            found = domain;
        }
        return found < 0 ? null : domains().name(found);
    }

    /** The pod required on the domain, unless it names a domain of its own (as {@link #pin} pins a gang). */
    PodInfo pin(PodInfo pod, String domain) {
        Map<String, String> selector = new HashMap<>(pod.constraints().nodeSelector());
        selector.putIfAbsent(topologyKey, domain);
        return pod.withConstraints(pod.constraints().withNodeSelector(selector));
    }

    private TopologyDomains domains() {
        if (domains == null) {
            domains = new TopologyDomains(nodes, topologyKey);
        }
        return domains;
    }

    /** The gang with each pending pod required on the domain, unless the pod names a domain of its own. */
    Pinned pin(PendingGang work, String domain) {
        Map<PodInfo, PodInfo> originals = new IdentityHashMap<>();
        Map<PlacementConstraints, PlacementConstraints> pinnedConstraints = new IdentityHashMap<>();
        List<PodInfo> pinned = new ArrayList<>(work.pending().size());
        for (PodInfo pod : work.pending()) {
            PlacementConstraints constraints = pinnedConstraints.computeIfAbsent(pod.constraints(), own -> {
                Map<String, String> selector = new HashMap<>(own.nodeSelector());
                // A pod that names its own domain keeps it: locality is a preference, the selector is not.
                selector.putIfAbsent(topologyKey, domain);
                return own.withNodeSelector(selector);
            });
            PodInfo copy = pod.withConstraints(constraints);
            originals.put(copy, pod);
            pinned.add(copy);
        }
        return new Pinned(new PendingGang(work.gang(), pinned, work.bound(), work.boundByTask(), work.lastFailedAt(),
                List.of(), work.members()), originals);
    }

    /**
     * A gang pinned to one domain.
     *
     * @param gang      the gang with its pods' copies, pinned
     * @param originals per copy (by identity), the pod it copies
     */
    public record Pinned(PendingGang gang, Map<PodInfo, PodInfo> originals) {
        /** The placement of the pinned gang, in the gang's own pods. */
        public GangPlacement unpin(GangPlacement result) {
            List<PodPlacement> placements = new ArrayList<>(result.placements().size());
            result.placements().forEach(p -> placements.add(new PodPlacement(originals.get(p.pod()), p.nodeName())));
            List<PodInfo> unplaced = new ArrayList<>(result.unplaced().size());
            result.unplaced().forEach(p -> unplaced.add(originals.get(p)));
            return new GangPlacement(result.gang(), result.outcome(), placements, unplaced, result.unschedulable(),
                    result.message(), result.nearQuorum());
        }
    }
}
