package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.model.PodInfo;

/**
 * A pod and the node chosen for it.
 *
 * @param pod      the pod
 * @param nodeName the node
 */
public record PodPlacement(PodInfo pod, String nodeName) {
}
