package dev.muster.scheduler;

import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.scheduler.autoscaling.AutoscalerSignal;
import dev.muster.scheduler.core.cycle.CoschedulingArgs;
import dev.muster.scheduler.core.cycle.CyclePlan;
import dev.muster.scheduler.core.cycle.QueuePlanner;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.MissingPodGroup;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.placement.GangPlacement;
import dev.muster.scheduler.core.queue.QueueHold;
import dev.muster.scheduler.core.queue.QueueStanding;
import dev.muster.gang.GangVerdict;
import dev.muster.gang.GangVerdictBoard;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.BooleanSupplier;

/**
 * One scheduling cycle: snapshot the cache, plan every waiting gang under the queues with the placement
 * core's {@link QueuePlanner}, assume and bind what was placed, evict what it decided to evict
 * ({@link PodEvictor}), and report the rest: a verdict per PodGroup on the board, the {@code PodScheduled}
 * condition of each pod left pending, an event per gang when why it waits changes, each Queue's status,
 * and the meters. Gangs the queues hold (their queue is missing or closed, a limit, or waiting for their
 * victims to terminate) are reported as waiting with the hold's reason. Pods whose PodGroup does not
 * exist are not planned; they get the condition and an event saying the group is missing, and no verdict,
 * since there is no PodGroup to give it to. Runs on the scheduler thread only; the API calls it starts run
 * elsewhere.
 */
final class SchedulingCycle implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(SchedulingCycle.class);

    private final SchedulerCache cache;
    private final BindingClient binder;
    private final PodEvictor evictor;
    private final QueueStatusWriter queueStatus;
    private final PodConditionWriter conditions;
    private final GangVerdictBoard board;
    private final SchedulingEvents events;
    private final SchedulerMetrics metrics;
    private final BooleanSupplier cacheSynced;
    private final Clock clock;
    /** Backoffs, reservations, failure times and promises live here, from one cycle to the next. */
    private final QueuePlanner planner;
    /** Shows the cluster autoscaler the gangs that wait for capacity; {@code null} when autoscaling is off. */
    private final AutoscalerSignal autoscaler;
    /** Why each gang waited in the last cycle, so that a gang waiting for the same reason logs once. */
    private Map<GroupKey, String> lastWaits = Map.of();
    /** The waiting gangs as the last cycle left them, for readers on other threads. */
    private volatile List<QueuedGang> waiting = List.of();
    /** Where each queue stood after the last cycle, for readers on other threads. */
    private volatile List<QueueStanding> standings = List.of();

    SchedulingCycle(SchedulerCache cache, BindingClient binder, PodEvictor evictor, QueueStatusWriter queueStatus,
                    PodConditionWriter conditions, GangVerdictBoard board, SchedulingEvents events,
                    SchedulerMetrics metrics, BooleanSupplier cacheSynced, Clock clock, CoschedulingArgs coscheduling,
                    AutoscalerSignal autoscaler) {
        this.cache = cache;
        this.binder = binder;
        this.evictor = evictor;
        this.queueStatus = queueStatus;
        this.conditions = conditions;
        this.board = board;
        this.events = events;
        this.metrics = metrics;
        this.cacheSynced = cacheSynced;
        this.clock = clock;
        this.planner = new QueuePlanner(coscheduling);
        this.autoscaler = autoscaler;
    }

    @Override
    public void run() {
        // Before the informers have listed everything, free capacity looks larger than it is.
        if (!cacheSynced.getAsBoolean()) {
            return;
        }
        metrics.cycle().record(this::runSynced);
    }

    private void runSynced() {
        CycleInput input = cache.beginCycle();
        Instant now = clock.instant();
        CyclePlan planned = planner.plan(input.snapshot(), input.gangs(), input.running(), input.queues(), now);
        List<QueueHold> holds = new ArrayList<>(input.refused());
        holds.addAll(planned.holds());
        CyclePlan plan = new CyclePlan(planned.placements(), planned.evictions(), holds, planned.standings(),
                planned.reclaims());
        List<GangPlacement> results = new ArrayList<>();
        for (GangPlacement result : plan.placements()) {
            results.add(result.notingNotEvaluated());
        }
        if (autoscaler != null) {
            Map<GroupKey, String> asked = autoscaler.cycle(input.gangs(), results, now);
            // The gang's PodGroup condition, its Job's status and its Events then say what the autoscaler was asked.
            results.replaceAll(result -> {
                String words = asked.get(result.gang().key());
                return words == null ? result : new GangPlacement(result.gang(), result.outcome(),
                        result.placements(), result.unplaced(), result.unschedulable(),
                        result.message() + " " + words, result.nearQuorum());
            });
        }
        if (!plan.evictions().isEmpty()) {
            Map<String, String> uids = new HashMap<>();
            plan.evictions().forEach(eviction -> uids.putAll(cache.assumeEvicted(eviction.pods())));
            evictor.evictAll(plan.evictions(), uids);
        }
        // After this cycle's evictions are pending, so that their marks are not taken for stale ones.
        evictor.sweepIfDue(now);
        String transitionId = UUID.randomUUID().toString();
        Map<GroupKey, String> waits = new HashMap<>();
        for (GangPlacement result : results) {
            GroupKey key = result.gang().key();
            if (result.outcome() == GangPlacement.Outcome.WITHDRAWN) {
                // A verdict about a deleted group would only linger on the board.
                if (cache.hasPodGroup(key)) {
                    board.publish(verdict(result, transitionId, now));
                }
                log.info("{}: {}", key, result.message());
                continue;
            }
            if (result.placed() && !result.placements().isEmpty()) {
                List<BindRequest> requests = cache.assume(result.placements(), input.snapshot().devices());
                binder.bindAll(requests);
                logBinding(result, requests);
            }
            // The pods of an admitted gang wait for their siblings to be created, not for room: telling
            // them Unschedulable would send the cluster autoscaler after room that is already held.
            if (result.outcome() != GangPlacement.Outcome.ADMITTED) {
                for (PodInfo pod : result.unplaced()) {
                    conditions.markUnschedulable(pod.namespace(), pod.name(), result.pendingPodMessage());
                }
            }
            if (!key.standalonePod()) {
                board.publish(verdict(result, transitionId, now));
            }
            if (result.outcome() == GangPlacement.Outcome.ADMITTED) {
                logWait(key, result.message(), waits);
            } else if (!result.unplaced().isEmpty() || !result.placed()) {
                logWait(result, waits);
            }
        }
        for (QueueHold hold : plan.holds()) {
            for (PodInfo pod : hold.pending()) {
                conditions.markUnschedulable(pod.namespace(), pod.name(), hold.message());
            }
            GroupKey key = hold.gang().key();
            if (!key.standalonePod()) {
                board.publish(new GangVerdict(key.namespace(), key.name(), GangVerdict.Outcome.UNSCHEDULABLE,
                        hold.reason().reason(), hold.message(), transitionId, now));
            }
            logWait(key, "held (" + hold.reason().reason() + "): " + hold.message(), waits);
        }
        for (MissingPodGroup missing : input.missing()) {
            for (PodInfo pod : missing.pods()) {
                conditions.markUnschedulable(pod.namespace(), pod.name(), missing.message());
            }
            logWait(missing.group(), missing.pods().size() + " pod(s) wait: " + missing.message(), waits);
        }
        lastWaits = waits;
        waiting = queueView(results, plan.holds(), input.missing());
        standings = plan.standings();
        events.report(results, plan.holds());
        events.reportMissing(input.missing());
        queueStatus.write(plan.standings());
        metrics.recordCycle(results, plan.holds());
        metrics.recordQueues(plan.standings());
    }

    /** The gangs that waited after the last cycle, in the order the next cycle tries them. */
    List<QueuedGang> waiting() {
        return waiting;
    }

    /** Where each queue stood after the last cycle, parents before their children. */
    List<QueueState> queueStates() {
        return standings.stream().map(standing -> new QueueState(standing.name(), amounts(standing.allocated()),
                amounts(standing.fairShare()), amounts(standing.demand()),
                Double.isFinite(standing.share()) ? standing.share() : null, standing.pendingGangs(),
                standing.runningGangs())).toList();
    }

    private static Map<String, String> amounts(ResourceVector vector) {
        Map<String, String> amounts = new TreeMap<>();
        ResourceQuantities.toQuantities(vector).forEach((resource, quantity) -> amounts.put(resource, quantity.toString()));
        return amounts;
    }

    private static List<QueuedGang> queueView(List<GangPlacement> results, List<QueueHold> holds,
                                              List<MissingPodGroup> missing) {
        List<GangPlacement> tried = new ArrayList<>();
        List<GangPlacement> backedOff = new ArrayList<>();
        for (GangPlacement result : results) {
            if (result.outcome() == GangPlacement.Outcome.WITHDRAWN || result.placed() && result.unplaced().isEmpty()) {
                continue;
            }
            (result.outcome() == GangPlacement.Outcome.BACKED_OFF ? backedOff : tried).add(result);
        }
        tried.addAll(backedOff);
        List<QueuedGang> view = new ArrayList<>(tried.size() + missing.size());
        for (GangPlacement result : tried) {
            GroupKey key = result.gang().key();
            view.add(new QueuedGang(key.namespace(), key.name(), !key.standalonePod(), view.size() + 1,
                    SchedulerMetrics.reasonTag(result.outcome()), result.pendingPodMessage(), result.gang().priority(),
                    result.gang().minMember(), result.unplaced().size()));
        }
        for (QueueHold hold : holds) {
            GroupKey key = hold.gang().key();
            view.add(new QueuedGang(key.namespace(), key.name(), !key.standalonePod(), view.size() + 1,
                    hold.reason().reason(), hold.message(), hold.gang().priority(), hold.gang().minMember(),
                    hold.pending().size()));
        }
        for (MissingPodGroup group : missing) {
            view.add(new QueuedGang(group.group().namespace(), group.group().name(), true, view.size() + 1,
                    SchedulingEvents.POD_GROUP_NOT_FOUND, group.message(), 0, 0, group.pods().size()));
        }
        return List.copyOf(view);
    }

    private static void logBinding(GangPlacement result, List<BindRequest> requests) {
        if (requests.isEmpty()) {
            return;
        }
        if (result.gang().key().standalonePod()) {
            log.info("{}: binding to {}", result.gang().key(), requests.get(0).nodeName());
        } else {
            log.info("{}: binding {} pod(s) to {} node(s); {}", result.gang().key(), requests.size(),
                    requests.stream().map(BindRequest::nodeName).distinct().count(), result.message());
        }
    }

    private void logWait(GangPlacement result, Map<GroupKey, String> waits) {
        logWait(result.gang().key(), result.placed()
                ? result.unplaced().size() + " pod(s) beyond the quorum left pending: " + result.pendingPodMessage()
                : "unschedulable (" + reason(result.outcome()) + "): " + result.message(), waits);
    }

    private void logWait(GroupKey key, String why, Map<GroupKey, String> waits) {
        waits.put(key, why);
        if (why.equals(lastWaits.get(key))) {
            log.debug("{}: {}", key, why);
        } else {
            log.info("{}: {}", key, why);
        }
    }

    private static GangVerdict verdict(GangPlacement result, String transitionId, Instant now) {
        GroupKey key = result.gang().key();
        GangVerdict.Outcome outcome = switch (result.outcome()) {
            case PLACED -> GangVerdict.Outcome.SCHEDULED;
            case ADMITTED -> GangVerdict.Outcome.ADMITTED;
            case NOT_ENOUGH_PODS, NOT_ENOUGH_RESOURCES, RESERVED, BACKED_OFF, WITHDRAWN ->
                    GangVerdict.Outcome.UNSCHEDULABLE;
        };
        return new GangVerdict(key.namespace(), key.name(), outcome, reason(result.outcome()), result.message(),
                transitionId, now);
    }

    /**
     * The verdict's reason for an outcome, which becomes the PodGroup condition's: a reservation and a
     * backoff are still a shortage of resources there. {@link SchedulerMetrics#reasonTag} tells them apart.
     */
    static String reason(GangPlacement.Outcome outcome) {
        return switch (outcome) {
            case PLACED -> SchedulingEvents.SCHEDULED;
            case NOT_ENOUGH_PODS, WITHDRAWN -> PodGroupCondition.REASON_NOT_ENOUGH_TASKS;
            case ADMITTED -> PodGroupCondition.REASON_ADMITTED;
            case NOT_ENOUGH_RESOURCES, RESERVED, BACKED_OFF -> PodGroupCondition.REASON_NOT_ENOUGH_RESOURCES;
        };
    }
}
