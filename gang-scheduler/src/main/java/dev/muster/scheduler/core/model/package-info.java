/**
 * What the placement core is given: the cluster's objects as plain, immutable records that mirror
 * Kubernetes, read from the API by the scheduler's adapter. Nodes ({@link dev.muster.scheduler.core.model.NodeInfo},
 * with {@link dev.muster.scheduler.core.model.Taint}s), pods ({@link dev.muster.scheduler.core.model.PodInfo}:
 * requests, {@link dev.muster.scheduler.core.model.PlacementConstraints} with node selectors, affinity and
 * tolerations, {@link dev.muster.scheduler.core.model.InterPodTerms} with inter-pod affinity, topology spread
 * and host ports), gangs ({@link dev.muster.scheduler.core.model.GangInfo}, and as a cycle sees them,
 * {@link dev.muster.scheduler.core.model.PendingGang} and {@link dev.muster.scheduler.core.model.RunningGang}),
 * queues ({@link dev.muster.scheduler.core.model.QueueInfo}), volumes and storage
 * ({@link dev.muster.scheduler.core.model.VolumeCatalog}) and amounts of resources
 * ({@link dev.muster.scheduler.core.model.ResourceVector}); also the matching rules that belong to these
 * types (whether a node selector term matches a node, a toleration a taint) and kube-scheduler's words for
 * why a pod fits no node ({@link dev.muster.scheduler.core.model.UnschedulableMessage}).
 *
 * <p>Depends on no other package of the core: every other one depends on it.
 */
package dev.muster.scheduler.core.model;
