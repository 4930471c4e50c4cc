package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.cluster.NodeState;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The domains one node label divides a snapshot's nodes into: their names, sorted, and each node's
 * domain number, so that per-domain counts are arrays rather than maps.
 */
final class TopologyDomains {
    private final List<String> names;
    /** Per node index, its domain's number; -1 if the node lacks the label. */
    private final int[] domainOf;

    TopologyDomains(NodeState[] nodes, String topologyKey) {
        Map<String, Integer> numbers = new TreeMap<>();
        for (NodeState node : nodes) {
            String value = node.info().labels().get(topologyKey);
            if (value != null) {
                numbers.put(value, 0);
            }
        }
        names = new ArrayList<>(numbers.keySet());
        for (int d = 0; d < names.size(); d++) {
            numbers.put(names.get(d), d);
        }
        domainOf = new int[nodes.length];
        for (int n = 0; n < nodes.length; n++) {
            String value = nodes[n].info().labels().get(topologyKey);
            domainOf[n] = value == null ? -1 : numbers.get(value);
        }
    }

    /** How many domains there are. */
    int count() {
        return names.size();
    }

    /** A domain's label value. */
    String name(int domain) {
        return names.get(domain);
    }

    /** The node's domain number, or -1 if the node lacks the label. */
    int of(int node) {
        return domainOf[node];
    }

    /** Per node index, its domain's number or -1; not to be changed. */
    int[] byNode() {
        return domainOf;
    }
}
