package dev.muster.scheduler;

import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.placement.GangPlacement;
import dev.muster.scheduler.core.preemption.Eviction;
import dev.muster.scheduler.core.queue.QueueHold;
import dev.muster.scheduler.core.queue.QueueStanding;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToDoubleFunction;

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
    static final String QUEUE_ALLOCATED = "muster.scheduler.queue.allocated";
    static final String QUEUE_FAIR_SHARE = "muster.scheduler.queue.fair.share";
    static final String QUEUE_DEMAND = "muster.scheduler.queue.demand";
    static final String QUEUE_SHARE = "muster.scheduler.queue.share";
    static final String QUEUE_PENDING_GANGS = "muster.scheduler.queue.pending.gangs";
    static final String QUEUE_RUNNING_GANGS = "muster.scheduler.queue.running.gangs";

    private final Timer cycle;
    private final Counter gangsPlaced;
    private final Counter podsBound;
    private final Counter bindFailures;
    private final Map<Eviction.Rule, Counter> podsEvicted = new EnumMap<>(Eviction.Rule.class);
    private final Counter gangsBroken;
    private final Counter evictionsRefused;
    private final Counter evictionFailures;
    private final MultiGauge queueAllocated;
    private final MultiGauge queueFairShare;
    private final MultiGauge queueDemand;
    private final MultiGauge queueShare;
    private final MultiGauge queuePending;
    private final MultiGauge queueRunning;
    /** The latest standing of each queue, by name, which the queue gauges read. */
    private volatile Map<String, QueueStanding> standings = Map.of();
    /**
     * Gangs waiting after the last cycle, by reason tag. One gauge per tag, fed by placement outcomes and queue
     * holds alike: both say {@code NotEnoughResources} (a gang that does not fit, and one whose minResources the
     * cluster's free room cannot meet), and Micrometer registers one gauge per name and tags, ignoring a second.
     */
    private final Map<String, AtomicInteger> waiting = new HashMap<>();

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
        Set<String> reasons = new TreeSet<>();
        for (GangPlacement.Outcome outcome : GangPlacement.Outcome.values()) {
            if (outcome != GangPlacement.Outcome.PLACED && outcome != GangPlacement.Outcome.WITHDRAWN) {
                reasons.add(reasonTag(outcome));
            }
        }
        for (QueueHold.Reason reason : QueueHold.Reason.values()) {
            reasons.add(reason.reason());
        }
        reasons.forEach(reason -> waiting.put(reason,
                registry.gauge(PENDING_GROUPS, List.of(Tag.of("reason", reason)), new AtomicInteger())));
        queueAllocated = MultiGauge.builder(QUEUE_ALLOCATED)
                .description("What a queue's bound pods request (its subtree's for a parent), cpu in cores")
                .register(registry);
        queueFairShare = MultiGauge.builder(QUEUE_FAIR_SHARE)
                .description("A queue's entitlement by weighted water-filling, cpu in cores").register(registry);
        queueDemand = MultiGauge.builder(QUEUE_DEMAND)
                .description("What a queue's running and waiting gangs request, cpu in cores").register(registry);
        queueShare = MultiGauge.builder(QUEUE_SHARE)
                .description("A queue's allocation over its fair share on its dominant resource").register(registry);
        queuePending = MultiGauge.builder(QUEUE_PENDING_GANGS).description("Gangs of a queue waiting to start")
                .register(registry);
        queueRunning = MultiGauge.builder(QUEUE_RUNNING_GANGS).description("Gangs of a queue running")
                .register(registry);
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

    /** Records one cycle's outcomes: gangs placed, and the gangs waiting (tried, or held by their queue) by reason. */
    void recordCycle(List<GangPlacement> results, List<QueueHold> holds) {
        Map<String, Integer> counts = new HashMap<>();
        holds.forEach(hold -> counts.merge(hold.reason().reason(), 1, Integer::sum));
        for (GangPlacement result : results) {
            if (result.placed()) {
                gangsPlaced.increment();
            } else if (result.outcome() != GangPlacement.Outcome.WITHDRAWN) {
                counts.merge(reasonTag(result.outcome()), 1, Integer::sum);
            }
        }
        waiting.forEach((reason, gauge) -> gauge.set(counts.getOrDefault(reason, 0)));
    }

    /**
     * Records where each queue stands: allocation, fair share and demand per resource (tags {@code queue} and
     * {@code resource}), dominant share, and pending and running gangs (tag {@code queue}). Queues that are
     * gone stop being reported. The gauges read the latest standings when scraped, so a cycle only adds and
     * removes rows for queues and resources that came or went, rather than replacing every meter.
     */
    void recordQueues(List<QueueStanding> current) {
        Map<String, QueueStanding> byName = new HashMap<>();
        current.forEach(standing -> byName.put(standing.name(), standing));
        standings = byName;
        List<MultiGauge.Row<?>> allocated = new ArrayList<>();
        List<MultiGauge.Row<?>> fairShare = new ArrayList<>();
        List<MultiGauge.Row<?>> demand = new ArrayList<>();
        List<MultiGauge.Row<?>> share = new ArrayList<>();
        List<MultiGauge.Row<?>> pending = new ArrayList<>();
        List<MultiGauge.Row<?>> running = new ArrayList<>();
        for (QueueStanding standing : current) {
            String name = standing.name();
            Tags queue = Tags.of("queue", name);
            Set<String> resources = new TreeSet<>(standing.demand().asMap().keySet());
            resources.addAll(standing.allocated().asMap().keySet());
            resources.addAll(standing.fairShare().asMap().keySet());
            resources.remove(ResourceVector.PODS);
            for (String resource : resources) {
                Tags tags = queue.and("resource", resource);
                allocated.add(row(tags, name, s -> amount(s.allocated(), resource)));
                fairShare.add(row(tags, name, s -> amount(s.fairShare(), resource)));
                demand.add(row(tags, name, s -> amount(s.demand(), resource)));
            }
            share.add(row(queue, name, QueueStanding::share));
            pending.add(row(queue, name, QueueStanding::pendingGangs));
            running.add(row(queue, name, QueueStanding::runningGangs));
        }
        queueAllocated.register(allocated, false);
        queueFairShare.register(fairShare, false);
        queueDemand.register(demand, false);
        queueShare.register(share, false);
        queuePending.register(pending, false);
        queueRunning.register(running, false);
    }

    /** A gauge row reading the named queue's latest standing; NaN once the queue is gone. */
    private MultiGauge.Row<SchedulerMetrics> row(Tags tags, String queue, ToDoubleFunction<QueueStanding> value) {
        return MultiGauge.Row.of(tags, this, metrics -> {
            QueueStanding standing = metrics.standings.get(queue);
            return standing == null ? Double.NaN : value.applyAsDouble(standing);
        });
    }

    /** A resource amount as reported: cpu in cores; a resource the queue has none of is 0. */
    private static double amount(ResourceVector amounts, String resource) {
        long amount = amounts.get(resource);
        return ResourceVector.CPU.equals(resource) ? amount / 1000.0 : amount;
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
