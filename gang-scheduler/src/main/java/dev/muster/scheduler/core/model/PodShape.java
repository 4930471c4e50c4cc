package dev.muster.scheduler.core.model;

/**
 * Requests and placement constraints: everything about the pod alone that decides which nodes it fits
 * and how a node scores for it. Pods of one shape pass the same nodes; what depends on the pods around a
 * node (inter-pod terms, host ports, spread) is checked per pod ({@code PodFilter}).
 *
 * @param requests    the pod's effective requests
 * @param constraints the pod's placement constraints
 */
public record PodShape(ResourceVector requests, PlacementConstraints constraints) {
}
