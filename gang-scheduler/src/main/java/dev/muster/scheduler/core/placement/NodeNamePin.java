package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.model.NodeSelectorRequirement;
import dev.muster.scheduler.core.model.NodeSelectorTerm;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PlacementConstraints;
import dev.muster.scheduler.core.model.PodInfo;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Pins a gang's pods to nodes by name, as a required node affinity on {@code metadata.name} joined to each
 * of the pod's own required terms: a promise keeps each of its preemptor's pods on the node its victims
 * freed for it. The result maps placements back to the gang's own pods.
 */
public final class NodeNamePin {
    private NodeNamePin() {
    }

    /** The gang with each pod required on one of the nodes given for it. */
    public static LocalityDomains.Pinned pin(PendingGang gang, Function<PodInfo, Set<String>> nodesOf) {
        Map<PodInfo, PodInfo> originals = new IdentityHashMap<>();
        Map<Pin, PlacementConstraints> pinned = new HashMap<>();
        List<PodInfo> pending = pin(gang.pending(), nodesOf, pinned, originals);
        List<PodInfo> expected = pin(gang.expected(), nodesOf, pinned, originals);
        return new LocalityDomains.Pinned(new PendingGang(gang.gang(), pending, gang.bound(), gang.boundByTask(),
                gang.lastFailedAt(), expected, gang.members()), originals);
    }

    /** A pod's own constraints and the nodes it is pinned to: pods alike share one pinned copy. */
    private record Pin(PlacementConstraints own, Set<String> nodes) {
    }

    private static List<PodInfo> pin(List<PodInfo> pods, Function<PodInfo, Set<String>> nodesOf,
                                     Map<Pin, PlacementConstraints> pinned, Map<PodInfo, PodInfo> originals) {
        List<PodInfo> copies = new ArrayList<>(pods.size());
        for (PodInfo pod : pods) {
            PlacementConstraints constraints = pinned.computeIfAbsent(new Pin(pod.constraints(), nodesOf.apply(pod)),
                    NodeNamePin::constrain);
            PodInfo copy = pod.withConstraints(constraints);
            originals.put(copy, pod);
            copies.add(copy);
        }
        return copies;
    }

    private static PlacementConstraints constrain(Pin pin) {
        NodeSelectorRequirement byName = new NodeSelectorRequirement(NodeSelectorTerm.NODE_NAME_FIELD,
                NodeSelectorRequirement.Operator.In, pin.nodes());
        PlacementConstraints own = pin.own();
        // Required terms are ORed: the node-name requirement joins each of them.
        List<NodeSelectorTerm> terms = new ArrayList<>();
        if (own.requiredAffinity().isEmpty()) {
            terms.add(new NodeSelectorTerm(List.of(), List.of(byName)));
        }
        for (NodeSelectorTerm term : own.requiredAffinity()) {
            List<NodeSelectorRequirement> fields = new ArrayList<>(term.matchFields());
            fields.add(byName);
            terms.add(new NodeSelectorTerm(term.matchExpressions(), fields));
        }
        return own.withRequiredAffinity(terms);
    }
}
