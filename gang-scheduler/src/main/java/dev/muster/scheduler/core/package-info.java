/**
 * The gang placement core: plain Java, no Kubernetes client, so that it can be unit-tested, simulated
 * and benchmarked. Nodes ({@link dev.muster.scheduler.core.NodeInfo}), pods
 * ({@link dev.muster.scheduler.core.PodInfo}) and gangs ({@link dev.muster.scheduler.core.GangInfo}) come
 * in; {@link dev.muster.scheduler.core.ClusterState} keeps per-node usage incrementally and hands out a
 * {@link dev.muster.scheduler.core.ClusterSnapshot} per cycle; {@link dev.muster.scheduler.core.GangPlanner}
 * tries each gang in {@link dev.muster.scheduler.core.GangOrder} with a transactional
 * {@link dev.muster.scheduler.core.GangTrial}; placements and reasons come out as
 * {@link dev.muster.scheduler.core.GangPlacement}s.
 */
package dev.muster.scheduler.core;
