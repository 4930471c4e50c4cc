package dev.muster.podgroup;

import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import dev.muster.support.controller.ObjectKey;
import dev.muster.support.controller.ReconcileResult;
import dev.muster.support.controller.Reconciler;
import dev.muster.support.event.EventRecorder;
import dev.muster.support.gang.GangVerdictBoard;
import dev.muster.support.status.StatusWriter;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.Duration;

/**
 * Reconciles one PodGroup: reads the group and its pods from the informer caches and the scheduler's
 * latest verdict from the board, lets {@link PodGroupStatusCalculator} decide, and writes the status
 * only if it changed. A phase change is logged and recorded as an Event once the write succeeded, so
 * a write that lost a conflict and is retried does not announce it twice. Other failures propagate,
 * and the controller retries them with backoff.
 */
final class PodGroupReconciler implements Reconciler {
    private static final Logger log = LoggerFactory.getLogger(PodGroupReconciler.class);
    /** How soon to look again while the caches are still filling. */
    static final Duration CACHE_SYNC_RETRY = Duration.ofMillis(200);
    /** How soon to look again after a write lost to a newer version, should no informer event come. */
    static final Duration CONFLICT_RETRY = Duration.ofSeconds(1);

    private final SharedIndexInformer<PodGroup> groups;
    private final SharedIndexInformer<Pod> pods;
    private final GangVerdictBoard verdicts;
    private final PodGroupStatusCalculator calculator;
    private final StatusWriter statusWriter;
    private final EventRecorder events;
    private final Clock clock;

    PodGroupReconciler(SharedIndexInformer<PodGroup> groups, SharedIndexInformer<Pod> pods, GangVerdictBoard verdicts,
                       PodGroupStatusCalculator calculator, StatusWriter statusWriter, EventRecorder events, Clock clock) {
        this.groups = groups;
        this.pods = pods;
        this.verdicts = verdicts;
        this.calculator = calculator;
        this.statusWriter = statusWriter;
        this.events = events;
        this.clock = clock;
    }

    @Override
    public ReconcileResult reconcile(ObjectKey key) {
        // Before both caches have listed, a group would look podless and drop to Pending.
        if (!groups.hasSynced() || !pods.hasSynced()) {
            return ReconcileResult.after(CACHE_SYNC_RETRY);
        }
        PodGroup group = groups.getStore().getByKey(key.toString());
        if (group == null || group.getMetadata().getDeletionTimestamp() != null) {
            return ReconcileResult.done();
        }
        var members = pods.getIndexer().byIndex(PodsByGroupIndex.NAME, key.toString());
        StatusDecision decision = calculator.decide(group.getStatus(), group.getSpec(), PodCensus.of(members),
                verdicts.latest(key.namespace(), key.name()), clock.instant());
        try {
            if (statusWriter.writeIfChanged(group, decision.status())) {
                announce(group, decision);
            }
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                throw e;
            }
            // The cached group is older than the stored one, often our own previous write. The informer is
            // about to deliver the newer version, which enqueues the group again; the delay is a backstop.
            log.debug("podgroup {} changed since it was cached; deciding again on the newer version", key);
            return ReconcileResult.after(CONFLICT_RETRY);
        }
        return ReconcileResult.done();
    }

    private void announce(PodGroup group, StatusDecision decision) {
        PodGroupStatus status = decision.status();
        String counts = String.format("running=%d succeeded=%d failed=%d minMember=%d", status.getRunning(),
                status.getSucceeded(), status.getFailed(), PodGroupStatusCalculator.minMember(group.getSpec()));
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
        events.record(group, broken ? EventRecorder.WARNING : EventRecorder.NORMAL, status.getPhase().name(),
                String.format("PodGroup phase %s -> %s: %s", decision.previousPhase(), status.getPhase(), counts));
    }
}
