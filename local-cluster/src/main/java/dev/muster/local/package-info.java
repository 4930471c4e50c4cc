/**
 * An embedded Kubernetes cluster for {@code ./muster local}, integration tests and benchmarks: fabric8's mock API
 * server in CRUD mode, extended until controllers, the gang scheduler and kubectl cannot tell it from a real API
 * server for what Muster does, plus simulated nodes, a simulated kubelet and, given node groups, a simulated cluster
 * autoscaler that serves ProvisioningRequests. Start one with
 * {@link dev.muster.local.LocalCluster#start(dev.muster.local.LocalClusterConfig)}. Production code never depends
 * on this package.
 */
package dev.muster.local;
