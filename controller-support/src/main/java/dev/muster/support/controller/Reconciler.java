package dev.muster.support.controller;

/**
 * Brings one object towards its desired state. Level-triggered: it reads the world from the informer
 * cache, never from the event that woke it, so a missed or repeated event does no harm.
 */
@FunctionalInterface
public interface Reconciler {

    /**
     * Reconciles the object with this key; a thrown exception makes the controller retry with
     * exponential backoff.
     */
    ReconcileResult reconcile(ObjectKey key) throws Exception;

    /**
     * Called when the reconcile of {@code key} has failed {@code attempts} times in a row, at
     * {@link Controller#FAILING_AFTER} and every failure after, so that the object can say so (a condition)
     * instead of only the log. Must not throw; the default does nothing.
     */
    default void failing(ObjectKey key, Throwable failure, int attempts) {
    }

    /** Called when the reconcile of a key that was reported {@link #failing} succeeds again. */
    default void recovered(ObjectKey key) {
    }
}
