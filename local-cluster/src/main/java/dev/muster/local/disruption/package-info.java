/**
 * PodDisruptionBudgets: the budget arithmetic, the eviction subresource that honours it, and the simulated
 * disruption controller that keeps each budget's status current.
 *
 * <p>May use store, protocol and informer; used by server (evictions) and {@code dev.muster.local} (the controller).
 */
package dev.muster.local.disruption;
