package dev.muster.scheduler;

import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.scheduler.core.GangPlacement;
import dev.muster.scheduler.core.GroupKey;
import dev.muster.support.event.EventRecorder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.cache.Store;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Records a {@code FailedScheduling} Warning event on a PodGroup (or on the pod of a gang of one) each
 * time why it waits changes, and a {@code Scheduled} Normal event when it is placed: one event per
 * distinct reason, not one per cycle, so {@code kubectl describe} stays readable however often cycles run.
 */
final class SchedulingEvents {
    static final String FAILED_SCHEDULING = "FailedScheduling";
    static final String SCHEDULED = "Scheduled";

    private final EventRecorder recorder;
    private final Store<PodGroup> podGroups;
    private final Store<Pod> pods;
    private final Executor executor;
    /** The last event recorded per gang still waiting, as reason and message. */
    private Map<GroupKey, String> recorded = new HashMap<>();

    SchedulingEvents(EventRecorder recorder, Store<PodGroup> podGroups, Store<Pod> pods, Executor executor) {
        this.recorder = recorder;
        this.podGroups = podGroups;
        this.pods = pods;
        this.executor = executor;
    }

    /** Records what changed since the last cycle; gangs absent from {@code results} are forgotten. */
    void report(List<GangPlacement> results) {
        Map<GroupKey, String> now = new HashMap<>();
        for (GangPlacement result : results) {
            GroupKey key = result.gang().key();
            String reason = result.placed() ? SCHEDULED : FAILED_SCHEDULING;
            String message = result.placed() ? result.message() : result.pendingPodMessage();
            String event = reason + ": " + message;
            if (!result.placed()) {
                now.put(key, event);
            }
            if (!event.equals(recorded.get(key))) {
                record(key, result.placed() ? EventRecorder.NORMAL : EventRecorder.WARNING, reason, message);
            }
        }
        recorded = now;
    }

    private void record(GroupKey key, String type, String reason, String message) {
        HasMetadata about = key.standalonePod() ? pods.getByKey(KubeObjects.key(key.namespace(), key.name()))
                : podGroups.getByKey(KubeObjects.key(key.namespace(), key.name()));
        if (about == null) {
            return;
        }
        try {
            executor.execute(() -> recorder.record(about, type, reason, message));
        } catch (RejectedExecutionException stopping) {
            // The scheduler is stopping; the event would describe a decision nobody acts on any more.
        }
    }
}
