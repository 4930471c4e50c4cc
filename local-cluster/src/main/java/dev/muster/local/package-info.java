/**
 * An embedded Kubernetes cluster for {@code ./muster local}, integration tests and benchmarks: fabric8's mock API
 * server in CRUD mode, extended until controllers, the gang scheduler and kubectl cannot tell it from a real API
 * server for what Muster does, plus simulated nodes, a simulated kubelet and, given node groups, a simulated cluster
 * autoscaler that serves ProvisioningRequests. Start one with
 * {@link dev.muster.local.LocalCluster#start(dev.muster.local.LocalClusterConfig)}. Production code never depends
 * on this package.
 *
 * <p>This package holds the entry points ({@link dev.muster.local.LocalCluster},
 * {@link dev.muster.local.LocalClusterConfig}, {@link dev.muster.local.NetworkCut}) and may use every package below
 * it; none of them uses it. Below it, arrows go one way (checked by {@code PackageArrowsTest}):
 * <ul>
 *   <li>the API server side: {@code server} → {@code admission}, {@code disruption}, {@code fault} →
 *       {@code store} → {@code protocol};</li>
 *   <li>the simulated cluster, which reaches the server only through a Kubernetes client: {@code autoscaler} →
 *       {@code node} → {@code dra} → {@code informer} (which {@code disruption}'s controller uses too);</li>
 *   <li>{@code manifest}, the CLI's reader of manifest files, on its own.</li>
 * </ul>
 */
package dev.muster.local;
