package dev.muster.api.scheduling.v1alpha1;

import dev.muster.api.batch.v1alpha1.GoDuration;
import io.fabric8.kubernetes.api.model.Quantity;

import java.time.Duration;
import java.util.Map;

/**
 * Effective values of optional Queue fields, the one place the scheduler and the controllers read them. The
 * CRD declares the same defaults, which an API server applies on write; these cover a queue written before,
 * or an API server that does not default.
 */
public final class QueueDefaults {
    /** Weight of a queue that sets none. */
    public static final int WEIGHT = 1;
    /** Reclaim delay of a queue that sets none. */
    public static final Duration RECLAIM_DELAY = Duration.ofSeconds(30);

    private QueueDefaults() {
    }

    /** {@code spec.weight}, 1 when unset. */
    public static int weight(QueueSpec spec) {
        return spec == null || spec.getWeight() == null ? WEIGHT : spec.getWeight();
    }

    /** {@code spec.guarantee}, empty when unset. */
    public static Map<String, Quantity> guarantee(QueueSpec spec) {
        return spec == null || spec.getGuarantee() == null ? Map.of() : spec.getGuarantee();
    }

    /** {@code spec.limit}, empty (no cap) when unset. */
    public static Map<String, Quantity> limit(QueueSpec spec) {
        return spec == null || spec.getLimit() == null ? Map.of() : spec.getLimit();
    }

    /** Whether the queue admits new jobs: {@code spec.state} is not {@code Closed}. */
    public static boolean open(QueueSpec spec) {
        return spec == null || !QueueSpec.CLOSED.equals(spec.getState());
    }

    /** {@code Open} or {@code Closed}, as {@link #open} reads it. */
    public static String state(QueueSpec spec) {
        return open(spec) ? QueueSpec.OPEN : QueueSpec.CLOSED;
    }

    /** The queue's parent; {@code null} for a queue at the top of the tree. */
    public static String parent(QueueSpec spec) {
        return spec == null || spec.getParent() == null || spec.getParent().isEmpty() ? null : spec.getParent();
    }

    /** The queue a Job or PodGroup is in: the one it names, {@link Queue#DEFAULT} when it names none. */
    public static String queueOf(String named) {
        return named == null || named.isEmpty() ? Queue.DEFAULT : named;
    }

    /** Whether {@code spec.preemption.withinQueue} allows evicting lower-priority gangs of the queue (the default). */
    public static boolean preemptsWithinQueue(QueueSpec spec) {
        QueuePreemptionSpec preemption = spec == null ? null : spec.getPreemption();
        return preemption == null || !QueuePreemptionSpec.NEVER.equals(preemption.getWithinQueue());
    }

    /** {@code spec.preemption.reclaim}, true when unset. */
    public static boolean reclaims(QueueSpec spec) {
        QueuePreemptionSpec preemption = spec == null ? null : spec.getPreemption();
        return preemption == null || preemption.getReclaim() == null || preemption.getReclaim();
    }

    /**
     * {@code spec.preemption.reclaimDelay}, 30 seconds when unset.
     *
     * @throws IllegalArgumentException if it is not a Go duration ({@link QueueTreeValidator} reports it)
     */
    public static Duration reclaimDelay(QueueSpec spec) {
        QueuePreemptionSpec preemption = spec == null ? null : spec.getPreemption();
        return preemption == null || preemption.getReclaimDelay() == null
                ? RECLAIM_DELAY : GoDuration.parse(preemption.getReclaimDelay());
    }
}
