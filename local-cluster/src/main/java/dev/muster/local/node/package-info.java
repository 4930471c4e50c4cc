/**
 * The simulated nodes and kubelet: the Node objects (the uniform pool and completed user-supplied nodes), what each
 * reports ({@link dev.muster.local.node.NodeShape}), and the kubelet that runs bound pods through their phases
 * ({@link dev.muster.local.node.KubeletTimings}).
 *
 * <p>May use dra and informer; talks to the API server through a Kubernetes client. Used by autoscaler and
 * {@code dev.muster.local}.
 */
package dev.muster.local.node;
