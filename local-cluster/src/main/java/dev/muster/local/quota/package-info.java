/**
 * ResourceQuotas over pods: the usage arithmetic ({@link dev.muster.local.quota.PodQuota}) and the admission that
 * refuses pods beyond a quota.
 *
 * <p>May use admission (quantities), store and protocol; used by server (admission).
 */
package dev.muster.local.quota;
