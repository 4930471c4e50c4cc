package dev.muster.job.decision;

import dev.muster.api.batch.v1alpha1.NetworkTopologySpec;
import dev.muster.api.scheduling.v1alpha1.PodGroupSchedulingConstraints;
import dev.muster.api.scheduling.v1alpha1.TopologyConstraint;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The cluster's network tiers as node label keys, tier 1 (the tightest, e.g. the leaf switch) first, and
 * how a Job's Volcano {@code networkTopology} maps onto them. Volcano describes the tiers with HyperNode
 * objects; Muster with node labels whose values name each tier's domains, so a limit of tier N becomes the
 * gang topology of {@code schedulingConstraints}: the first N keys, tried tightest first. Pure.
 *
 * @param keys the label keys, tier 1 first; empty when the cluster configures none
 */
public record NetworkTopologyTiers(List<String> keys) {
    /** A cluster that configures no tiers: no {@code networkTopology} is honoured. */
    public static final NetworkTopologyTiers NONE = new NetworkTopologyTiers(List.of());

    public NetworkTopologyTiers {
        keys = List.copyOf(Objects.requireNonNull(keys, "keys"));
        for (String key : keys) {
            if (key == null || key.isBlank()) {
                throw new IllegalArgumentException("network topology tiers must be node label keys, got '" + key + "'");
            }
        }
        if (keys.stream().distinct().count() != keys.size()) {
            throw new IllegalArgumentException("network topology tiers must not repeat a label key, got " + keys);
        }
    }

    /**
     * What a {@code networkTopology} becomes: the gang topology of its highest tier ({@code highestTierAllowed}
     * counts from 1; {@code highestTierName} names a tier by its label key), {@code Required} in mode
     * {@code hard} (the default) and {@code Preferred} in mode {@code soft}; or why it cannot be honoured here.
     */
    public Mapping map(NetworkTopologySpec topology) {
        if (topology == null) {
            return new Mapping(Optional.empty(), Optional.empty());
        }
        if (keys.isEmpty()) {
            return notHonoured("this cluster configures no network tiers (muster.scheduler.network-topology-tiers)");
        }
        int highest;
        if (topology.getHighestTierName() != null) {
            highest = keys.indexOf(topology.getHighestTierName()) + 1;
            if (highest == 0) {
                return notHonoured("highestTierName '" + topology.getHighestTierName()
                        + "' is not one of this cluster's tiers " + keys);
            }
        } else if (topology.getHighestTierAllowed() != null) {
            highest = topology.getHighestTierAllowed();
            if (highest < 1 || highest > keys.size()) {
                return notHonoured("highestTierAllowed " + highest + " is not one of this cluster's tiers 1 to "
                        + keys.size() + " " + keys);
            }
        } else {
            return notHonoured("it sets neither highestTierAllowed nor highestTierName");
        }
        PodGroupSchedulingConstraints constraints = new PodGroupSchedulingConstraints();
        constraints.setTopology(keys.subList(0, highest).stream().map(TopologyConstraint::new).toList());
        constraints.setTopologyPolicy(NetworkTopologySpec.SOFT.equals(topology.getMode())
                ? PodGroupSchedulingConstraints.PREFERRED : PodGroupSchedulingConstraints.REQUIRED);
        return new Mapping(Optional.of(constraints), Optional.empty());
    }

    private static Mapping notHonoured(String why) {
        return new Mapping(Optional.empty(), Optional.of(why));
    }

    /**
     * @param constraints the gang topology it maps to, when it can be honoured
     * @param notHonoured why it is not honoured, when it is set and cannot be; the pods are then placed as if it
     *                    were absent
     */
    public record Mapping(Optional<PodGroupSchedulingConstraints> constraints, Optional<String> notHonoured) {
    }
}
