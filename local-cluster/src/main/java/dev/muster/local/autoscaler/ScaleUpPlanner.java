package dev.muster.local.autoscaler;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The simulated autoscaler's decisions about room, on plain data: whether pods fit the room there is, and which
 * node group to grow by how many nodes so that they do. Pods are placed first-fit in the order given, each onto
 * the first room whose free resources cover its requests and whose labels match its node selector, as Cluster
 * Autoscaler's binpacking estimator places pods onto existing and then template nodes.
 */
final class ScaleUpPlanner {
    private ScaleUpPlanner() {
    }

    /**
     * What a pod asks of a node.
     *
     * @param id           for messages, e.g. {@code default/worker-0}
     * @param requests     effective requests in base units, without {@code pods}
     * @param nodeSelector labels a node must have
     */
    record PodDemand(String id, Map<String, BigDecimal> requests, Map<String, String> nodeSelector) {
    }

    /**
     * Room on one node, existing or on its way.
     *
     * @param node     the node's name
     * @param group    its node group, null outside any group
     * @param labels   its labels
     * @param free     allocatable minus what its pods request, in base units, {@code pods} included
     * @param upcoming whether it is still being added
     */
    record Room(String node, String group, Map<String, String> labels, Map<String, BigDecimal> free, boolean upcoming) {
        Room {
            free = Map.copyOf(free);
            labels = Map.copyOf(labels);
        }

        boolean fits(PodDemand pod) {
            if (!pod.nodeSelector().entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())))) {
                return false;
            }
            if (free.getOrDefault("pods", BigDecimal.ZERO).signum() <= 0) {
                return false;
            }
            return pod.requests().entrySet().stream()
                    .allMatch(e -> free.getOrDefault(e.getKey(), BigDecimal.ZERO).compareTo(e.getValue()) >= 0);
        }

        Room minus(PodDemand pod) {
            Map<String, BigDecimal> left = new HashMap<>(free);
            pod.requests().forEach((resource, amount) -> left.merge(resource, amount.negate(), BigDecimal::add));
            left.merge("pods", BigDecimal.ONE.negate(), BigDecimal::add);
            return new Room(node, group, labels, left, upcoming);
        }

        /** An empty node of the group, as its template says. */
        static Room template(NodeGroup group, String node, boolean upcoming) {
            Map<String, String> labels = new LinkedHashMap<>(group.labels());
            labels.put(NodeGroup.GROUP_LABEL, group.name());
            Map<String, BigDecimal> free = new HashMap<>();
            group.capacity().forEach((resource, q) -> free.put(resource, q.getNumericalAmount()));
            return new Room(node, group.name(), labels, free, upcoming);
        }
    }

    /**
     * Where pods went and what was left over.
     *
     * @param rooms    the rooms after placing the pods
     * @param placed   node of each placed pod, by pod id
     * @param unplaced the pods no room had space for, in order
     */
    record Placement(List<Room> rooms, Map<String, String> placed, List<PodDemand> unplaced) {
    }

    /** A decision about a set of pods. */
    sealed interface Decision {
    }

    /** The pods fit the room there is. */
    record Fits() implements Decision {
    }

    /** Adding {@code nodes} nodes to {@code group} makes room for the pods. */
    record ScaleUp(NodeGroup group, int nodes) implements Decision {
    }

    /** No node group can make room; {@code message} says why, group by group. */
    record NoScaleUp(String message) implements Decision {
    }

    /** Places the pods first-fit onto the rooms. */
    static Placement place(List<PodDemand> pods, List<Room> rooms) {
        List<Room> left = new ArrayList<>(rooms);
        Map<String, String> placed = new LinkedHashMap<>();
        List<PodDemand> unplaced = new ArrayList<>();
        for (PodDemand pod : pods) {
            int at = -1;
            for (int i = 0; i < left.size() && at < 0; i++) {
                if (left.get(i).fits(pod)) {
                    at = i;
                }
            }
            if (at < 0) {
                unplaced.add(pod);
            } else {
                placed.put(pod.id(), left.get(at).node());
                left.set(at, left.get(at).minus(pod));
            }
        }
        return new Placement(left, placed, unplaced);
    }

    /**
     * All or nothing, as for {@code best-effort-atomic-scale-up}: the pods that do not fit the rooms must all fit
     * new nodes of one group within its maximum; the group needing the fewest nodes wins (then the first by name).
     *
     * @param sizes each group's nodes, existing and upcoming
     */
    static Decision atomic(List<PodDemand> pods, List<Room> rooms, List<NodeGroup> groups, Map<String, Integer> sizes) {
        List<PodDemand> rest = place(pods, rooms).unplaced();
        if (rest.isEmpty()) {
            return new Fits();
        }
        List<String> reasons = new ArrayList<>();
        Optional<ScaleUp> best = Optional.empty();
        for (NodeGroup group : sorted(groups)) {
            Optional<PodDemand> misfit = rest.stream()
                    .filter(pod -> !Room.template(group, "template", false).fits(pod)).findFirst();
            if (misfit.isPresent()) {
                reasons.add("pod " + misfit.get().id() + " does not fit a node of group " + group.name());
                continue;
            }
            int needed = nodesFor(rest, group);
            int size = sizes.getOrDefault(group.name(), 0);
            if (size + needed > group.max()) {
                reasons.add("group " + group.name() + " would need " + needed + " more nodes but has " + size
                        + " of at most " + group.max());
                continue;
            }
            if (best.isEmpty() || needed < best.get().nodes()) {
                best = Optional.of(new ScaleUp(group, needed));
            }
        }
        return best.<Decision>map(d -> d).orElseGet(() -> new NoScaleUp(rest.size() + " of " + pods.size()
                + " pods do not fit the cluster and no node group can add room for all of them: "
                + String.join("; ", reasons)));
    }

    /**
     * As Cluster Autoscaler's scale-up for unschedulable pods: pods that fit the rooms need nothing; for the rest,
     * the group that makes room for the most of them within its maximum grows (fewer nodes, then name, break ties),
     * even when some pods stay without room.
     */
    static Decision pending(List<PodDemand> pods, List<Room> rooms, List<NodeGroup> groups, Map<String, Integer> sizes) {
        List<PodDemand> rest = place(pods, rooms).unplaced();
        if (rest.isEmpty()) {
            return new Fits();
        }
        ScaleUp best = null;
        int bestPlaced = 0;
        for (NodeGroup group : sorted(groups)) {
            int headroom = group.max() - sizes.getOrDefault(group.name(), 0);
            Room template = Room.template(group, "template", false);
            List<PodDemand> fitting = rest.stream().filter(template::fits).toList();
            if (headroom <= 0 || fitting.isEmpty()) {
                continue;
            }
            List<Room> fresh = new ArrayList<>();
            for (int i = 0; i < headroom; i++) {
                fresh.add(Room.template(group, "new-" + i, true));
            }
            Placement placement = place(fitting, fresh);
            int placed = placement.placed().size();
            int nodes = (int) placement.placed().values().stream().distinct().count();
            if (placed > bestPlaced || (placed == bestPlaced && best != null && nodes < best.nodes())) {
                best = new ScaleUp(group, nodes);
                bestPlaced = placed;
            }
        }
        return best == null ? new NoScaleUp(rest.size() + " unschedulable pods fit no node group with room to grow")
                : best;
    }

    /** Why no group can take a pod, group by group, e.g. {@code group gpu: 4 of at most 4 nodes}. */
    static String whyNot(PodDemand pod, List<NodeGroup> groups, Map<String, Integer> sizes) {
        List<String> reasons = new ArrayList<>();
        for (NodeGroup group : sorted(groups)) {
            int size = sizes.getOrDefault(group.name(), 0);
            if (!Room.template(group, "template", false).fits(pod)) {
                reasons.add("group " + group.name() + ": the pod does not fit its nodes");
            } else if (size >= group.max()) {
                reasons.add("group " + group.name() + ": " + size + " of at most " + group.max() + " nodes");
            } else {
                reasons.add("group " + group.name() + ": not chosen");
            }
        }
        return String.join("; ", reasons);
    }

    /** Nodes of {@code group} that the pods need when packed first-fit onto empty ones; each pod fits one. */
    private static int nodesFor(List<PodDemand> pods, NodeGroup group) {
        List<Room> fresh = new ArrayList<>();
        for (PodDemand pod : pods) {
            Placement placement = place(List.of(pod), fresh);
            if (placement.unplaced().isEmpty()) {
                fresh = placement.rooms();
            } else {
                fresh.add(Room.template(group, "new-" + fresh.size(), true).minus(pod));
            }
        }
        return fresh.size();
    }

    private static List<NodeGroup> sorted(List<NodeGroup> groups) {
        return groups.stream().sorted(Comparator.comparing(NodeGroup::name)).toList();
    }
}
