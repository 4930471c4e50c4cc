package dev.muster.podgroup;

import dev.muster.api.scheduling.v1alpha1.PodGroupDefaults;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import dev.muster.support.controller.ObjectKey;
import dev.muster.support.controller.ReconcileResult;
import dev.muster.support.controller.Reconciler;
import dev.muster.support.event.EventRecorder;
import dev.muster.support.gang.GangVerdictBoard;
import dev.muster.support.status.CounterWritePacer;
import dev.muster.support.status.StatusWriter;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Reconciles one PodGroup: reads the group, its pods and the nodes from the informer caches and the
 * scheduler's latest verdict from the board, lets {@link PodGroupStatusCalculator} decide, and writes
 * the status only if it changed (counter-only changes paced by {@link CounterWritePacer}). While a
 * running gang waits for members to be replaced it asks to look again when the grace period ends. A
 * phase change is logged and recorded as an Event once the write succeeded, so a write that lost a
 * conflict and is retried does not announce it twice. Failures, conflicts included, propagate to the
 * controller, which retries them.
 */
final class PodGroupReconciler implements Reconciler {
    private static final Logger log = LoggerFactory.getLogger(PodGroupReconciler.class);
    /** How soon to look again while the caches are still filling. */
    static final Duration CACHE_SYNC_RETRY = Duration.ofMillis(200);

    private final SharedIndexInformer<PodGroup> groups;
    private final SharedIndexInformer<Pod> pods;
    private final SharedIndexInformer<Node> nodes;
    private final GangVerdictBoard verdicts;
    private final PodGroupStatusCalculator calculator;
    private final ReplacementWaits replacementWaits;
    private final CounterWritePacer<PodGroupStatus> pacer;
    private final StatusWriter statusWriter;
    private final EventRecorder events;
    private final Clock clock;

    PodGroupReconciler(SharedIndexInformer<PodGroup> groups, SharedIndexInformer<Pod> pods,
                       SharedIndexInformer<Node> nodes, GangVerdictBoard verdicts, PodGroupStatusCalculator calculator,
                       ReplacementWaits replacementWaits, CounterWritePacer<PodGroupStatus> pacer, StatusWriter statusWriter,
                       EventRecorder events, Clock clock) {
        this.groups = groups;
        this.pods = pods;
        this.nodes = nodes;
        this.verdicts = verdicts;
        this.calculator = calculator;
        this.replacementWaits = replacementWaits;
        this.pacer = pacer;
        this.statusWriter = statusWriter;
        this.events = events;
        this.clock = clock;
    }

    @Override
    public ReconcileResult reconcile(ObjectKey key) {
        // Before all caches have listed, a group would look podless, or its pods nodeless, and change phase.
        if (!groups.hasSynced() || !pods.hasSynced() || !nodes.hasSynced()) {
            return ReconcileResult.after(CACHE_SYNC_RETRY);
        }
        PodGroup group = groups.getStore().getByKey(key.toString());
        if (group == null || group.getMetadata().getDeletionTimestamp() != null) {
            forget(key);
            return ReconcileResult.done();
        }
        if (group.readFailure().isPresent()) {
            // Reported (log, Event, metric) by the shared informers; a status computed from a spec we could not
            // read would be a guess.
            log.debug("podgroup {}: cannot be read ({}); skipped", key, group.readFailure().get().describe());
            return ReconcileResult.done();
        }
        Instant now = clock.instant();
        var members = pods.getIndexer().byIndex(PodsByGroupIndex.NAME, key.toString());
        PodCensus census = PodCensus.of(members, node -> nodes.getStore().getByKey(node) != null);
        StatusDecision decision = calculator.decide(group.getStatus(), group.getSpec(), census,
                verdicts.latest(key.namespace(), key.name()), replacementWaits.overdue(key, now), now);
        ReconcileResult next = ReconcileResult.done();
        if (decision.awaitsReplacement()) {
            Duration left = replacementWaits.waiting(key, now);
            next = ReconcileResult.after(left.isNegative() ? Duration.ZERO : left);
        } else {
            replacementWaits.stop(key);
        }
        Optional<Duration> holdBack = pacer.holdBack(key, group.getStatus(), decision.status(), now);
        if (holdBack.isPresent()) {
            return next.sooner(ReconcileResult.after(holdBack.get()));
        }
        if (statusWriter.writeIfChanged(group, decision.status())) {
            pacer.written(key, now);
            announce(group, decision);
        }
        return next;
    }

    /** Drops what is remembered of a group that is gone. */
    void forget(ObjectKey key) {
        replacementWaits.stop(key);
        pacer.forget(key);
    }

    private void announce(PodGroup group, StatusDecision decision) {
        PodGroupStatus status = decision.status();
        String counts = String.format("running=%d succeeded=%d failed=%d minMember=%d", status.getRunning(),
                status.getSucceeded(), status.getFailed(), PodGroupDefaults.minMember(group.getSpec()));
        String namespace = group.getMetadata().getNamespace();
        String name = group.getMetadata().getName();
        if (!decision.phaseChanged()) {
            log.debug("podgroup {}/{} status updated in phase {} on {} ({})", namespace, name, status.getPhase(),
                    decision.event(), counts);
            return;
        }
        log.info("podgroup {}/{} phase {} -> {} on {} ({})", namespace, name, decision.previousPhase(),
                status.getPhase(), decision.event(), counts);
        boolean broken = status.getPhase() == PodGroupPhase.Unknown || status.getPhase() == PodGroupPhase.Failed;
        String message = String.format("PodGroup phase %s -> %s: %s", decision.previousPhase(), status.getPhase(), counts);
        if (broken) {
            // kubectl describe should say why without a look at the conditions.
            message += status.getConditions().stream().filter(c -> PodGroupCondition.SCHEDULED.equals(c.getType()))
                    .findFirst().map(c -> ". " + c.getReason() + ": " + c.getMessage()).orElse("");
        }
        events.record(group, broken ? EventRecorder.WARNING : EventRecorder.NORMAL, status.getPhase().name(), message);
    }
}
