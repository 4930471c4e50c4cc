package dev.muster.api.scheduling.v1alpha1;

import java.util.Objects;

/**
 * Why a queue does not take a Job or gang that names it, as {@link QueueAccess} decides.
 *
 * @param reason  one {@link QueueAccess#isRefusal} accepts, for a Job's state, a PodGroup's condition and pending pods
 * @param message for humans, naming the queue (and the namespace, for {@link QueueAccess#FORBIDDEN})
 */
public record QueueRefusal(String reason, String message) {
    public QueueRefusal {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(message, "message");
    }

    /**
     * Whether the gang should keep its place while refused: only a Closed queue's, which will take it as it
     * is once opened. The others (no such queue, not a leaf, not for this namespace) need the queue tree or
     * the Job changed, so the gang is not proposed and holds no room.
     */
    public boolean keepsPlace() {
        return QueueAccess.CLOSED.equals(reason);
    }
}
