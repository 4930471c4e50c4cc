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
}
