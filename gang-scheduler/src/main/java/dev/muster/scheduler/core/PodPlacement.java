package dev.muster.scheduler.core;

/**
 * A pod and the node chosen for it.
 *
 * @param pod      the pod
 * @param nodeName the node
 */
public record PodPlacement(PodInfo pod, String nodeName) {
}
