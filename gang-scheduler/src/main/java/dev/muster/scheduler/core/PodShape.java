package dev.muster.scheduler.core;

/**
 * Requests and placement constraints: everything that decides which nodes a pod fits and how a node
 * scores for it. Pods of one shape are interchangeable for placement.
 *
 * @param requests    the pod's effective requests
 * @param constraints the pod's placement constraints
 */
public record PodShape(ResourceVector requests, PlacementConstraints constraints) {
}
