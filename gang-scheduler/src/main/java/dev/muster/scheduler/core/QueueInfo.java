package dev.muster.scheduler.core;

import java.util.Objects;

/**
 * A queue as the placement core sees it: a node of the queue hierarchy, whose leaves take gangs.
 *
 * @param name       the queue's name (queues are cluster-scoped)
 * @param parent     the parent queue's name; {@code null} for a queue directly under the root
 * @param weight     its share of its parent's entitlement relative to its siblings; at least 1
 * @param guarantee  resources the queue always gets when it asks for them, lent to others while idle;
 *                   {@link ResourceVector#ZERO} for none
 * @param limit      hard cap on what the queue's subtree may hold; {@code null} for no cap
 * @param preemption whether and how the queue's gangs may evict others
 * @param open       {@code false} when the queue is closed: its running gangs go on, new ones wait
 */
public record QueueInfo(String name, String parent, int weight, ResourceVector guarantee, ResourceVector limit,
                        QueuePreemption preemption, boolean open) {
    /** The queue a gang that names none belongs to, which exists from the start. */
    public static final String DEFAULT = "default";

    public QueueInfo {
        Objects.requireNonNull(name, "name");
        if (weight < 1) {
            throw new IllegalArgumentException("queue " + name + ": weight must be at least 1, got " + weight);
        }
        guarantee = guarantee == null ? ResourceVector.ZERO : guarantee;
        preemption = preemption == null ? QueuePreemption.DEFAULTS : preemption;
    }

    /** An open top-level queue of the given weight, with no guarantee, no limit and default preemption. */
    public static QueueInfo of(String name, int weight) {
        return new QueueInfo(name, null, weight, ResourceVector.ZERO, null, QueuePreemption.DEFAULTS, true);
    }
}
