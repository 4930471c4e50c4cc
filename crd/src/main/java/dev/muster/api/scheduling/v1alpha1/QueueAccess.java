package dev.muster.api.scheduling.v1alpha1;

import dev.muster.api.LabelSelectors;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * When a queue takes a Job or gang: the one rule the Job controller (before it creates pods) and the gang
 * scheduler (before it admits or binds a gang, a hand-made PodGroup's included) both apply, so that they never
 * disagree. A pure function of the queue named, every queue's spec, and the namespace with its labels.
 *
 * <p>In this order, a queue refuses with:
 * <ol>
 *   <li>{@value #NOT_FOUND}: it does not exist, or hangs off a parent that does not exist, or is in a cycle
 *       of parents (it is not in the tree);</li>
 *   <li>{@value #NOT_LEAF}: it has child queues. As in Volcano's hierarchical queues, only leaf queues take
 *       jobs; a parent queue's share is what its children use;</li>
 *   <li>{@value #FORBIDDEN}: its {@code spec.namespaceSelector} does not select the namespace;</li>
 *   <li>{@value #CLOSED}: its {@code spec.state} is {@code Closed}.</li>
 * </ol>
 * Each waits rather than fails: the queue may be created, lose its children, select the namespace (or the
 * namespace gain the labels) or open. {@link Queue#DEFAULT} exists for this rule even before its object does
 * (the manager creates it at start) and admits every namespace.
 */
public final class QueueAccess {
    /** The queue named does not exist or is not in the queue tree. */
    public static final String NOT_FOUND = "QueueNotFound";
    /** The queue named has child queues; only leaf queues take jobs. */
    public static final String NOT_LEAF = "QueueNotLeaf";
    /** The queue's {@code namespaceSelector} does not select the namespace of the Job or gang. */
    public static final String FORBIDDEN = "QueueForbidden";
    /** The queue is Closed: running jobs go on, new ones wait. */
    public static final String CLOSED = "QueueClosed";
    private static final Set<String> REASONS = Set.of(NOT_FOUND, NOT_LEAF, FORBIDDEN, CLOSED);

    private QueueAccess() {
    }

    /**
     * Why the queue does not take what names it, if it does not.
     *
     * @param named           {@code spec.queue} as given (blank means {@link Queue#DEFAULT}, see
     *                        {@link QueueDefaults#queueOf})
     * @param queues          every queue's spec by name (a spec may be {@code null})
     * @param namespace       the namespace of the Job or PodGroup
     * @param namespaceLabels that namespace's labels; empty when it is not known (yet)
     */
    public static Optional<QueueRefusal> refusal(String named, Map<String, QueueSpec> queues, String namespace,
                                                 Map<String, String> namespaceLabels) {
        String name = QueueDefaults.queueOf(named);
        if (!queues.containsKey(name)) {
            return Queue.DEFAULT.equals(name) ? Optional.empty() : Optional.of(new QueueRefusal(NOT_FOUND,
                    "queue " + name + " does not exist; it waits until the queue is created"));
        }
        Optional<String> outside = outsideTree(name, queues);
        if (outside.isPresent()) {
            return Optional.of(new QueueRefusal(NOT_FOUND, outside.get()));
        }
        List<String> children = QueueAncestry.children(queues).getOrDefault(name, List.of());
        if (!children.isEmpty()) {
            return Optional.of(new QueueRefusal(NOT_LEAF, "queue " + name + " has child queues ("
                    + String.join(", ", children) + "); only leaf queues take jobs: name one of its leaves"));
        }
        QueueSpec spec = queues.get(name);
        if (!Queue.DEFAULT.equals(name) && spec != null && spec.getNamespaceSelector() != null
                && !LabelSelectors.matches(spec.getNamespaceSelector(), namespaceLabels)) {
            return Optional.of(new QueueRefusal(FORBIDDEN, "namespace " + namespace + " may not use queue " + name
                    + ": the queue's spec.namespaceSelector does not select it; it waits until it does"));
        }
        if (!QueueDefaults.open(spec)) {
            return Optional.of(new QueueRefusal(CLOSED, closedMessage(name)));
        }
        return Optional.empty();
    }

    /**
     * The message of {@value #CLOSED}; the scheduler's planner, which keeps a Closed queue's gangs in the queue
     * (they keep their place, see {@link QueueRefusal#keepsPlace()}), holds them with it too.
     */
    public static String closedMessage(String queue) {
        return "queue " + queue + " is Closed: its running jobs go on, new ones wait until it is Open";
    }

    /** Why an existing queue is not in the tree: a missing ancestor or a cycle of parents. */
    private static Optional<String> outsideTree(String name, Map<String, QueueSpec> queues) {
        QueueAncestry ancestry = QueueAncestry.of(name, queues);
        if (ancestry.missingParent() != null) {
            String last = ancestry.path().get(ancestry.path().size() - 1);
            return Optional.of("queue " + name + (last.equals(name) ? "" : " has ancestor " + last + ", which")
                    + " names parent " + ancestry.missingParent() + ", which does not exist");
        }
        if (ancestry.cycleStart() == null) {
            return Optional.empty();
        }
        return Optional.of("queue " + name + " is not in the queue tree: " + String.join(" -> ", ancestry.cycle()) + " -> "
                + ancestry.cycleStart() + " is a cycle of parents");
    }

    /**
     * Whether {@code reason} (a Job state's or a condition's, possibly null) is one of a {@link QueueRefusal}'s:
     * {@link #NOT_FOUND}, {@link #NOT_LEAF}, {@link #FORBIDDEN} or {@link #CLOSED}.
     */
    public static boolean isRefusal(String reason) {
        return reason != null && REASONS.contains(reason);
    }
}
