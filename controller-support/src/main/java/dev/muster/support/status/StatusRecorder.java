package dev.muster.support.status;

import dev.muster.support.controller.ObjectKey;
import dev.muster.support.event.EventRecorder;
import io.fabric8.kubernetes.client.CustomResource;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.BiPredicate;

/**
 * Writes what a reconcile decided about an object of one kind: its status, through {@link StatusWriter}
 * (only when it changed, with the resourceVersion the decision was based on), with writes that change only
 * counters paced by {@link CounterWritePacer}, and then the Events the decision announces. Events are
 * recorded only once the write succeeded, so a decision that lost a conflict, and is made again, does not
 * announce itself twice. In the spirit of the Flink Kubernetes Operator's {@code StatusRecorder}: one place
 * where status reaches the API server, for Jobs and PodGroups alike. Thread-safe.
 *
 * @param <S> the status type
 */
public final class StatusRecorder<S> {
    private final StatusWriter writer;
    private final CounterWritePacer<S> pacer;
    private final EventRecorder events;

    /**
     * @param writer               writes the status; its {@link StatusWriter#writes()} counts this recorder's writes
     * @param events               records the Events of written updates
     * @param counterWriteInterval least time between two writes of one object that change only its counters
     * @param countersOnly         whether two statuses differ, and only in their counters
     */
    public StatusRecorder(StatusWriter writer, EventRecorder events, Duration counterWriteInterval,
                          BiPredicate<S, S> countersOnly) {
        this.writer = writer;
        this.events = events;
        this.pacer = new CounterWritePacer<>(counterWriteInterval, countersOnly);
    }

    /**
     * What a reconcile wants written about an object.
     *
     * @param status the status it should have
     * @param events Events to record on it once that status is written
     * @param urgent written at once even if only counters changed, e.g. because the caller acts on the write
     */
    public record Update<S>(S status, List<Event> events, boolean urgent) {
        public Update {
            events = List.copyOf(events);
        }
    }

    /**
     * A core/v1 Event to record.
     *
     * @param type {@link EventRecorder#NORMAL} or {@link EventRecorder#WARNING}
     */
    public record Event(String type, String reason, String message) {
    }

    /**
     * What became of an update.
     *
     * @param written  whether the status was written (and the Events recorded)
     * @param heldBack how long a counter-only change waits to be written; nothing was written then
     */
    public record Outcome(boolean written, Optional<Duration> heldBack) {
        static final Outcome UNCHANGED = new Outcome(false, Optional.empty());
        static final Outcome WRITTEN = new Outcome(true, Optional.empty());
    }

    /**
     * Writes {@code update} over the status of {@code current} unless it is the same or, changing only
     * counters soon after the last write, is to wait.
     *
     * @throws io.fabric8.kubernetes.client.KubernetesClientException with code 409 when the object changed
     *         since {@code current} was read; the controller then decides again on the newer version
     */
    public <T extends CustomResource<?, S>> Outcome record(T current, Update<S> update, Instant now) {
        ObjectKey key = ObjectKey.of(current);
        if (!update.urgent()) {
            Optional<Duration> holdBack = pacer.holdBack(key, current.getStatus(), update.status(), now);
            if (holdBack.isPresent()) {
                return new Outcome(false, holdBack);
            }
        }
        if (!writer.writeIfChanged(current, update.status())) {
            return Outcome.UNCHANGED;
        }
        pacer.written(key, now);
        update.events().forEach(event -> events.record(current, event.type(), event.reason(), event.message()));
        return Outcome.WRITTEN;
    }

    /** Drops what is remembered of an object that is gone, so that one re-created under its name starts afresh. */
    public void forget(ObjectKey key) {
        pacer.forget(key);
    }
}
