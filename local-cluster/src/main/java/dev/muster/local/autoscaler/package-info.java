/**
 * The simulated cluster autoscaler: node groups and their configuration, the pure scale-up planner, the
 * ProvisioningRequest conditions, and the autoscaler that adds and removes group nodes.
 *
 * <p>May use node and informer; talks to the API server through a Kubernetes client. Used by
 * {@code dev.muster.local}.
 */
package dev.muster.local.autoscaler;
