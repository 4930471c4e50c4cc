/**
 * The gang placement core: plain Java, no Kubernetes client, so that it can be unit-tested, simulated
 * and benchmarked. Nodes ({@link dev.muster.scheduler.core.NodeInfo}), pods
 * ({@link dev.muster.scheduler.core.PodInfo}) and gangs ({@link dev.muster.scheduler.core.GangInfo}) come
 * in; {@link dev.muster.scheduler.core.ClusterState} keeps per-node usage incrementally and hands out a
 * {@link dev.muster.scheduler.core.ClusterSnapshot} per cycle; {@link dev.muster.scheduler.core.GangQueue}
 * (backoff, reservations, admissions, failure order; {@link dev.muster.scheduler.core.CoschedulingArgs})
 * tries each gang in {@link dev.muster.scheduler.core.GangOrder} with a transactional
 * {@link dev.muster.scheduler.core.GangTrial}, which finds nodes through a per-shape {@link dev.muster.scheduler.core.ShapeIndex} and filters them by
 * {@link dev.muster.scheduler.core.PlacementConstraints}; placements and reasons come out as
 * {@link dev.muster.scheduler.core.GangPlacement}s.
 */
package dev.muster.scheduler.core;
