package dev.muster.podgroup;

import dev.muster.api.batch.v1alpha1.JobOwnership;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.api.scheduling.v1alpha1.PodGroupDefaults;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import dev.muster.support.controller.ObjectKey;
import dev.muster.support.controller.ReconcileResult;
import dev.muster.support.controller.Reconciler;
import dev.muster.support.event.EventRecorder;
import dev.muster.gang.GangVerdict;
import dev.muster.gang.GangVerdictBoard;
import dev.muster.support.status.FirstWriteWait;
import dev.muster.support.status.StatusRecorder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Reconciles one PodGroup: reads the group, its pods and the nodes from the {@link PodGroupCache} and the
 * scheduler's latest verdict from the board, lets {@link PodGroupStatusCalculator} decide, and hands the
 * desired status, with the Event a phase change is announced by, to the {@link StatusRecorder}, which
 * writes it only if it changed (counter-only changes paced) and records the Event once the write
 * succeeded. While a running gang waits for members to be replaced it asks to look again when the grace
 * period ends. Failures, conflicts included, propagate to the controller, which retries them.
 */
final class PodGroupReconciler implements Reconciler {
    private static final Logger log = LoggerFactory.getLogger(PodGroupReconciler.class);
    /** How soon to look again while the caches are still filling. */
    static final Duration CACHE_SYNC_RETRY = Duration.ofMillis(200);
    /** How long a group never written waits for the scheduler's first verdict, from when it was first seen. */
    static final Duration FIRST_VERDICT_WAIT = Duration.ofSeconds(1);

    private final PodGroupCache cache;
    private final GangVerdictBoard verdicts;
    private final PodGroupStatusCalculator calculator;
    private final ReplacementWaits replacementWaits;
    private final FirstWriteWait firstWrites;
    private final StatusRecorder<PodGroupStatus> recorder;
    private final Clock clock;

    PodGroupReconciler(PodGroupCache cache, GangVerdictBoard verdicts, PodGroupStatusCalculator calculator,
                       ReplacementWaits replacementWaits, FirstWriteWait firstWrites,
                       StatusRecorder<PodGroupStatus> recorder, Clock clock) {
        this.cache = cache;
        this.verdicts = verdicts;
        this.calculator = calculator;
        this.replacementWaits = replacementWaits;
        this.firstWrites = firstWrites;
        this.recorder = recorder;
        this.clock = clock;
    }

    @Override
    public ReconcileResult reconcile(ObjectKey key) {
        if (!cache.hasSynced()) {
            return ReconcileResult.after(CACHE_SYNC_RETRY);
        }
        Optional<PodGroup> found = cache.group(key);
        if (found.isEmpty() || found.get().getMetadata().getDeletionTimestamp() != null) {
            forget(key);
            return ReconcileResult.done();
        }
        PodGroup group = found.get();
        if (group.readFailure().isPresent()) {
            // Reported (log, Event, metric) by the shared informers; a status computed from a spec we could not
            // read would be a guess.
            log.debug("podgroup {}: cannot be read ({}); skipped", key, group.readFailure().get().describe());
            return ReconcileResult.done();
        }
        Instant now = clock.instant();
        PodCensus census = PodCensus.of(cache.members(key), cache::nodeExists);
        Optional<GangVerdict> verdict = verdicts.latest(key.namespace(), key.name());
        StatusDecision decision = calculator.decide(group.getStatus(), group.getSpec(), census, verdict,
                replacementWaits.overdue(key, now), now);
        Optional<Duration> firstVerdict = firstWrites.left(key, mayWaitForFirstVerdict(group, verdict, decision), now);
        if (firstVerdict.isPresent()) {
            return ReconcileResult.after(firstVerdict.get());
        }
        ReconcileResult next = ReconcileResult.done();
        if (decision.awaitsReplacement()) {
            Duration left = replacementWaits.waiting(key, now);
            next = ReconcileResult.after(left.isNegative() ? Duration.ZERO : left);
        } else {
            replacementWaits.stop(key);
        }
        StatusRecorder.Outcome outcome = recorder.record(group, update(group, decision), now);
        if (outcome.heldBack().isPresent()) {
            return next.sooner(ReconcileResult.after(outcome.heldBack().get()));
        }
        if (outcome.written()) {
            logWrite(group, decision);
        }
        return next;
    }

    /**
     * Whether a group never written may wait for the scheduler's first verdict before it is written
     * {@code Pending}. The scheduler decides on a new group within a cycle, usually milliseconds after it
     * appears; written at once, the group would be written {@code Pending} and then, at once, {@code Inqueue}.
     * The verdict's arrival reconciles the group again, so an admitted group is written {@code Inqueue}
     * directly; one the scheduler has not decided on within {@link #FIRST_VERDICT_WAIT} is written then.
     */
    private static boolean mayWaitForFirstVerdict(PodGroup group, Optional<GangVerdict> verdict, StatusDecision decision) {
        return (group.getStatus() == null || group.getStatus().getPhase() == null) && verdict.isEmpty()
                && decision.status().getPhase() == PodGroupPhase.Pending;
    }

    /** Where it reads from. */
    PodGroupCache cache() {
        return cache;
    }

    /** Drops what is remembered of a group that is gone. */
    void forget(ObjectKey key) {
        replacementWaits.stop(key);
        firstWrites.forget(key);
        recorder.forget(key);
    }

    /**
     * The decided status, announced by an Event when the phase changes: reason the new phase, and a
     * Warning for Unknown and Failed, whose message says why so that kubectl describe needs no look at
     * the conditions. A Job's own gang announces only Unknown and Failed: its other phases (Inqueue,
     * Running, Completed) are the Job's Events already (the scheduler's Admitted and Scheduled, the Job's
     * Running and Completed), and saying them twice cost two or three Events per Job.
     */
    private static StatusRecorder.Update<PodGroupStatus> update(PodGroup group, StatusDecision decision) {
        PodGroupStatus status = decision.status();
        boolean broken = status.getPhase() == PodGroupPhase.Unknown || status.getPhase() == PodGroupPhase.Failed;
        if (!decision.phaseChanged() || !broken && JobOwnership.controllingJob(group).isPresent()) {
            return new StatusRecorder.Update<>(status, List.of(), false);
        }
        String message = String.format("PodGroup phase %s -> %s: %s", decision.previousPhase(), status.getPhase(),
                counts(group, status));
        if (broken) {
            message += status.getConditions().stream().filter(c -> PodGroupCondition.SCHEDULED.equals(c.getType()))
                    .findFirst().map(c -> ". " + c.getReason() + ": " + c.getMessage()).orElse("");
        }
        return new StatusRecorder.Update<>(status, List.of(new StatusRecorder.Event(
                broken ? EventRecorder.WARNING : EventRecorder.NORMAL, status.getPhase().name(), message)), false);
    }

    private static void logWrite(PodGroup group, StatusDecision decision) {
        PodGroupStatus status = decision.status();
        String namespace = group.getMetadata().getNamespace();
        String name = group.getMetadata().getName();
        if (decision.phaseChanged()) {
            log.info("podgroup {}/{} phase {} -> {} on {} ({})", namespace, name, decision.previousPhase(),
                    status.getPhase(), decision.event(), counts(group, status));
        } else {
            log.debug("podgroup {}/{} status updated in phase {} on {} ({})", namespace, name, status.getPhase(),
                    decision.event(), counts(group, status));
        }
    }

    private static String counts(PodGroup group, PodGroupStatus status) {
        return String.format("running=%d succeeded=%d failed=%d minMember=%d", status.getRunning(),
                status.getSucceeded(), status.getFailed(), PodGroupDefaults.minMember(group.getSpec()));
    }
}
