/**
 * What the simulated components (kubelet, controllers, autoscaler) share: starting their informers and waiting for
 * the first lists, and the loop of the controllers whose objects' status counts pods ({@code PodCountingStatusLoop}).
 * Uses nothing of the local cluster.
 */
package dev.muster.local.informer;
