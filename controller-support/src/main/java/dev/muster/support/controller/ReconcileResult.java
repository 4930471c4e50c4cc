package dev.muster.support.controller;

import java.time.Duration;
import java.util.Optional;

/** What a reconcile asks of its controller: nothing more, or another look after a delay. */
public record ReconcileResult(Optional<Duration> requeueAfter) {
    private static final ReconcileResult DONE = new ReconcileResult(Optional.empty());

    /** The object is as desired until something about it changes. */
    public static ReconcileResult done() {
        return DONE;
    }

    /** Look again after the delay even if nothing changes, e.g. for a timeout or a TTL. */
    public static ReconcileResult after(Duration delay) {
        return new ReconcileResult(Optional.of(delay));
    }

    /** The earlier of two requests for another look. */
    public ReconcileResult sooner(ReconcileResult other) {
        if (requeueAfter.isEmpty()) {
            return other;
        }
        if (other.requeueAfter.isEmpty()) {
            return this;
        }
        return requeueAfter.get().compareTo(other.requeueAfter.get()) <= 0 ? this : other;
    }
}
