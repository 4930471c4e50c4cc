package dev.muster.podgroup;

import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.support.controller.Attachments;
import dev.muster.support.controller.ObjectKey;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Indexer;

import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * The PodGroup controller's read side: PodGroups, their member pods (by the pod-group label) and the nodes
 * those are bound to, from the shared informers' caches. Tests build it over caches they fill themselves.
 */
final class PodGroupCache {
    private final Indexer<PodGroup> groups;
    private final Indexer<Pod> pods;
    private final Indexer<Node> nodes;
    private final BooleanSupplier synced;

    /**
     * @param pods   must carry the indexes of {@link #addIndexes}
     * @param synced whether all three have listed their kinds
     */
    PodGroupCache(Indexer<PodGroup> groups, Indexer<Pod> pods, Indexer<Node> nodes, BooleanSupplier synced) {
        this.groups = groups;
        this.pods = pods;
        this.nodes = nodes;
        this.synced = synced;
    }

    /** The cache of the given informers; their indexes are added by {@link #addIndexes}. */
    static PodGroupCache of(SharedIndexInformer<PodGroup> groups, SharedIndexInformer<Pod> pods,
                            SharedIndexInformer<Node> nodes) {
        return new PodGroupCache(groups.getIndexer(), pods.getIndexer(), nodes.getIndexer(),
                () -> groups.hasSynced() && pods.hasSynced() && nodes.hasSynced());
    }

    /** Adds the indexes the cache reads by to the shared Pod informer, unless it has them. */
    static void addIndexes(SharedIndexInformer<Pod> pods) {
        Attachments.index(pods, PodsByGroupIndex.indexers());
        Attachments.index(pods, PodsByNodeIndex.indexers());
    }

    /**
     * Whether every kind has been listed. Before that a group would look podless, or its pods nodeless, and
     * change phase.
     */
    boolean hasSynced() {
        return synced.getAsBoolean();
    }

    Optional<PodGroup> group(ObjectKey key) {
        return Optional.ofNullable(groups.getByKey(key.toString()));
    }

    /** The group's pods, whatever their state. */
    List<Pod> members(ObjectKey group) {
        return pods.byIndex(PodsByGroupIndex.NAME, group.toString());
    }

    /** Pods of any group bound to the node. */
    List<Pod> membersOn(String node) {
        return pods.byIndex(PodsByNodeIndex.NAME, node);
    }

    boolean nodeExists(String node) {
        return nodes.getByKey(node) != null;
    }
}
