/**
 * What the simulated components (kubelet, controllers, autoscaler) share: starting their informers and waiting for
 * the first lists. Uses nothing of the local cluster.
 */
package dev.muster.local.informer;
