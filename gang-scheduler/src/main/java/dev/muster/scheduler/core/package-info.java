/**
 * The gang placement core: plain Java, no Kubernetes client, so that it can be unit-tested, simulated
 * and benchmarked. Nodes ({@link dev.muster.scheduler.core.NodeInfo}), pods
 * ({@link dev.muster.scheduler.core.PodInfo}) and gangs ({@link dev.muster.scheduler.core.GangInfo}) come
 * in; {@link dev.muster.scheduler.core.ClusterState} keeps per-node usage incrementally and hands out a
 * {@link dev.muster.scheduler.core.ClusterSnapshot} per cycle; {@code GangQueue}
 * (backoff, reservations, admissions, failure order; {@link dev.muster.scheduler.core.CoschedulingArgs})
 * tries each gang in {@link dev.muster.scheduler.core.GangOrder} with a transactional
 * {@link dev.muster.scheduler.core.GangTrial}. A trial takes what the gang's quorum needs from
 * {@link dev.muster.scheduler.core.QuorumBounds}, packs it into one topology domain if asked
 * ({@link dev.muster.scheduler.core.GangTopology}, {@link dev.muster.scheduler.core.LocalityDomains}),
 * finds nodes through a per-shape {@link dev.muster.scheduler.core.ShapeIndex}
 * ({@link dev.muster.scheduler.core.ShapeIndexes}) that filters them by
 * {@link dev.muster.scheduler.core.PlacementConstraints} (volume topology included, read from the
 * {@link dev.muster.scheduler.core.VolumeCatalog}) and scores them with their preferences
 * ({@link dev.muster.scheduler.core.NodePreferences}), checks what depends on the pods around a node
 * ({@link dev.muster.scheduler.core.PodFilter}s: host ports, topology spread, inter-pod affinity) against
 * the cycle's {@link dev.muster.scheduler.core.PodLayout}, allocates pods' DRA claims from the snapshot's
 * device ledger ({@code DeviceCheck}, package {@code dra}), and records what it does to the snapshot in a
 * {@link dev.muster.scheduler.core.PlacementStatement}, committed or discarded whole; placements and
 * reasons come out as {@link dev.muster.scheduler.core.GangPlacement}s. For preemption,
 * {@link dev.muster.scheduler.core.VictimSearch} finds the running gangs' surplus members or whole gangs
 * whose eviction lets a waiting gang's trial place it, within a {@link dev.muster.scheduler.core.VictimBudget},
 * as a verified {@link dev.muster.scheduler.core.Preemption}. Under queues,
 * {@link dev.muster.scheduler.core.QueuePlanner} plans a cycle as a {@link dev.muster.scheduler.core.CyclePlan}:
 * fair shares ({@code FairShare}, {@code QueueLedger}), the queues' order and limits ({@code QueueOrder}),
 * backfill ({@code BackfillReservation}), preemption within a queue and reclaim across queues
 * ({@code PreemptionRound}, {@code ReclaimBudget}) and the room promised to preemptors ({@code Promises}),
 * around {@code GangQueue}. {@code QueuePlanner} is the one public way to plan a cycle: the live scheduler,
 * the simulator and the placement benchmarks all run it; {@code GangQueue} is internal to it.
 */
package dev.muster.scheduler.core;
