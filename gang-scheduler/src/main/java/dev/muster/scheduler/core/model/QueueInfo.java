package dev.muster.scheduler.core.model;

import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * A queue as the placement core sees it: a node of the queue hierarchy, whose leaves take gangs.
 *
 * @param name       the queue's name (queues are cluster-scoped)
 * @param parent     the parent queue's name; {@code null} for a queue directly under the root
 * @param weight     its share of its parent's entitlement relative to its siblings; at least 1
 * @param guarantee  resources the queue always gets when it asks for them, lent to others while idle;
 *                   {@link ResourceVector#ZERO} for none
 * @param limit      hard cap on what the queue's subtree may hold, on the resources
 *                   {@code limitedResources} names; {@code null} for no cap
 * @param limitedResources the resources {@code limit} caps, a zero amount included ({@code nvidia.com/gpu: 0}
 *                   means no GPUs), which a vector alone cannot tell from an absent one; empty for no cap
 * @param preemption whether and how the queue's gangs may evict others
 * @param open       {@code false} when the queue is closed: its running gangs go on, new ones wait
 */
public record QueueInfo(String name, String parent, int weight, ResourceVector guarantee, ResourceVector limit,
                        Set<String> limitedResources, QueuePreemption preemption, boolean open) {
    /** The queue a gang that names none belongs to, which exists from the start. */
    public static final String DEFAULT = "default";

    public QueueInfo {
        Objects.requireNonNull(name, "name");
        if (weight < 1) {
            throw new IllegalArgumentException("queue " + name + ": weight must be at least 1, got " + weight);
        }
        guarantee = guarantee == null ? ResourceVector.ZERO : guarantee;
        limitedResources = limitedResources == null ? Set.of() : Set.copyOf(limitedResources);
        if (limit == null && !limitedResources.isEmpty()) {
            limit = ResourceVector.ZERO;
        }
        preemption = preemption == null ? QueuePreemption.DEFAULTS : preemption;
    }

    /**
     * A queue whose limit caps the resources it has a non-zero amount of; one that should cap a resource
     * at zero names it with the canonical constructor's {@code limitedResources}.
     */
    public QueueInfo(String name, String parent, int weight, ResourceVector guarantee, ResourceVector limit,
                     QueuePreemption preemption, boolean open) {
        this(name, parent, weight, guarantee, limit, nonZero(limit), preemption, open);
    }

    /** Whether the limit caps the resource. */
    public boolean limits(String resource) {
        return limitedResources.contains(resource);
    }

    private static Set<String> nonZero(ResourceVector limit) {
        Set<String> names = new HashSet<>();
        if (limit != null) {
            for (int d = 0; d < limit.length(); d++) {
                if (limit.at(d) > 0) {
                    names.add(ResourceVector.nameOf(d));
                }
            }
        }
        return names;
    }

    /** An open top-level queue of the given weight, with no guarantee, no limit and default preemption. */
    public static QueueInfo of(String name, int weight) {
        return new QueueInfo(name, null, weight, ResourceVector.ZERO, null, Set.of(), QueuePreemption.DEFAULTS, true);
    }
}
