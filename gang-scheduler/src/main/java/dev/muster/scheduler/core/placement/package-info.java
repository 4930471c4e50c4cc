/**
 * Placing one gang: a transactional {@link dev.muster.scheduler.core.placement.GangTrial} takes what the
 * gang's quorum needs ({@link dev.muster.scheduler.core.placement.QuorumBounds}), packs it into one topology
 * domain if asked ({@code LocalityDomains}), finds nodes through a per-shape node index ({@code ShapeIndex},
 * {@code ShapeIndexes}) that filters them by the pods' placement constraints and scores them with their
 * preferences ({@code NodePreferences}, {@link dev.muster.scheduler.core.placement.NodeScoring}), checks what
 * depends on the pods around a node ({@code PodFilter}s: host ports, topology spread, inter-pod affinity)
 * against the cycle's {@code PodLayout}, allocates pods' DRA claims ({@code DeviceCheck}), and records what
 * it does to the snapshot in a {@link dev.muster.scheduler.core.placement.PlacementStatement}, committed or
 * discarded whole. Placements and reasons come out as
 * {@link dev.muster.scheduler.core.placement.GangPlacement}s.
 *
 * <p>May depend on {@code model}, {@code dra} and {@code cluster}; knows nothing of queues or preemption.
 */
package dev.muster.scheduler.core.placement;
