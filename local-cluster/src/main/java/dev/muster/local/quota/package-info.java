/**
 * ResourceQuotas over pods: the usage arithmetic ({@link dev.muster.local.quota.PodQuota}), the admission that
 * refuses pods beyond a quota, and the simulated quota controller that keeps each quota's status current.
 *
 * <p>May use admission (quantities), store, protocol and informer; used by server (admission) and
 * {@code dev.muster.local} (the controller).
 */
package dev.muster.local.quota;
