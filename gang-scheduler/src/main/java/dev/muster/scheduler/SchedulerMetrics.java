package dev.muster.scheduler;

import dev.muster.scheduler.core.Eviction;
import dev.muster.scheduler.core.GangPlacement;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The scheduler's meters: cycle duration, gangs placed, pods bound, bind failures, the gangs left
 * waiting after the last cycle by why they wait, and preemption: pods evicted by rule, evictions refused by
 * a PodDisruptionBudget or failed, and gangs broken (left below their minimum, which must stay 0).
 */
final class SchedulerMetrics {
    static final String CYCLE = "muster.scheduler.cycle";
    static final String GANGS_PLACED = "muster.scheduler.gangs.placed";
    static final String PODS_BOUND = "muster.scheduler.pods.bound";
    static final String BIND_FAILURES = "muster.scheduler.bind.failures";
    static final String PENDING_GROUPS = "muster.scheduler.pending.groups";
    static final String PODS_EVICTED = "muster.scheduler.preemption.pods.evicted";
    static final String GANGS_BROKEN = "muster.scheduler.preemption.gangs.broken";
    static final String EVICTIONS_REFUSED = "muster.scheduler.preemption.evictions.refused";
    static final String EVICTION_FAILURES = "muster.scheduler.preemption.eviction.failures";

    private final Timer cycle;
    private final Counter gangsPlaced;
    private final Counter podsBound;
    private final Counter bindFailures;
    private final Map<Eviction.Rule, Counter> podsEvicted = new EnumMap<>(Eviction.Rule.class);
    private final Counter gangsBroken;
    private final Counter evictionsRefused;
    private final Counter evictionFailures;
    private final Map<GangPlacement.Outcome, AtomicInteger> waiting = new EnumMap<>(GangPlacement.Outcome.class);

    SchedulerMetrics(MeterRegistry registry) {
        cycle = Timer.builder(CYCLE).description("Time to plan one scheduling cycle and hand its bindings off")
                .register(registry);
        gangsPlaced = Counter.builder(GANGS_PLACED).description("Gangs whose quorum a cycle placed")
                .register(registry);
        podsBound = Counter.builder(PODS_BOUND).description("Pods bound through the Binding API").register(registry);
        bindFailures = Counter.builder(BIND_FAILURES).description("Bindings the API server refused or that failed")
                .register(registry);
        for (Eviction.Rule rule : Eviction.Rule.values()) {
            podsEvicted.put(rule, Counter.builder(PODS_EVICTED).tag("reason", rule.reason())
                    .description("Pods the scheduler evicted to make room for a gang, by the rule that allowed it")
                    .register(registry));
        }
        gangsBroken = Counter.builder(GANGS_BROKEN)
                .description("Gangs left running below their minimum by a preemption; must stay 0").register(registry);
        evictionsRefused = Counter.builder(EVICTIONS_REFUSED)
                .description("Evictions a PodDisruptionBudget refused").register(registry);
        evictionFailures = Counter.builder(EVICTION_FAILURES)
                .description("Evictions that failed for another reason than a PodDisruptionBudget").register(registry);
        for (GangPlacement.Outcome outcome : GangPlacement.Outcome.values()) {
            if (outcome != GangPlacement.Outcome.PLACED && outcome != GangPlacement.Outcome.WITHDRAWN) {
                AtomicInteger count = registry.gauge(PENDING_GROUPS,
                        List.of(Tag.of("reason", reasonTag(outcome))),
                        new AtomicInteger());
                waiting.put(outcome, count);
            }
        }
    }

    /**
     * The tag value for why a gang waits: the verdict's {@linkplain SchedulingCycle#reason reason}, except
     * for the outcomes the verdict folds into another reason.
     */
    static String reasonTag(GangPlacement.Outcome outcome) {
        return switch (outcome) {
            case RESERVED -> "Reserved";
            case BACKED_OFF -> "BackingOff";
            case WITHDRAWN -> "Withdrawn";
            case PLACED, NOT_ENOUGH_PODS, NOT_ENOUGH_RESOURCES, ADMITTED -> SchedulingCycle.reason(outcome);
        };
    }

    Timer cycle() {
        return cycle;
    }

    /** Records one cycle's outcomes: gangs placed, and the gangs waiting by reason. */
    void recordCycle(List<GangPlacement> results) {
        Map<GangPlacement.Outcome, Integer> counts = new EnumMap<>(GangPlacement.Outcome.class);
        for (GangPlacement result : results) {
            if (result.placed()) {
                gangsPlaced.increment();
            } else if (result.outcome() != GangPlacement.Outcome.WITHDRAWN) {
                counts.merge(result.outcome(), 1, Integer::sum);
            }
        }
        waiting.forEach((outcome, gauge) -> gauge.set(counts.getOrDefault(outcome, 0)));
    }

    void podBound() {
        podsBound.increment();
    }

    void bindFailed() {
        bindFailures.increment();
    }

    void podEvicted(Eviction.Rule rule) {
        podsEvicted.get(rule).increment();
    }

    void gangBroken() {
        gangsBroken.increment();
    }

    void evictionRefused() {
        evictionsRefused.increment();
    }

    void evictionFailed() {
        evictionFailures.increment();
    }
}
