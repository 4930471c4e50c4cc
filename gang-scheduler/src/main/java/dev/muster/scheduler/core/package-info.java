/**
 * The gang placement core: plain Java, no Kubernetes client and no Spring, so that it can be unit-tested,
 * simulated and benchmarked. It is split by what each class is, and its packages depend on each other one
 * way only, each on those listed before it (checked by {@code CoreArchitectureTest}):
 * <ol>
 *   <li>{@link dev.muster.scheduler.core.model model}: what the core is given, the cluster's objects as
 *       plain records mirroring Kubernetes (nodes, pods, gangs, queues, volumes, resource vectors);</li>
 *   <li>{@link dev.muster.scheduler.core.dra dra}: Dynamic Resource Allocation, devices and claims;</li>
 *   <li>{@link dev.muster.scheduler.core.cluster cluster}: the cluster's state across cycles
 *       ({@link dev.muster.scheduler.core.cluster.ClusterState}) and the snapshot one cycle works on
 *       ({@link dev.muster.scheduler.core.cluster.ClusterSnapshot});</li>
 *   <li>{@link dev.muster.scheduler.core.placement placement}: the transactional trial of one gang
 *       ({@link dev.muster.scheduler.core.placement.GangTrial}) with its predicates and scores;</li>
 *   <li>{@link dev.muster.scheduler.core.queue queue}: the queue tree, fair shares and the cycle's
 *       accounts of the queues, the order of gangs within a queue, and why a queue holds a gang;</li>
 *   <li>{@link dev.muster.scheduler.core.preemption preemption}: who gives up room for whom (preemption
 *       within a queue, reclaim across queues, the room promised to preemptors) and who may use room
 *       held for another (backfill);</li>
 *   <li>{@link dev.muster.scheduler.core.cycle cycle}: the production scheduling cycle,
 *       {@link dev.muster.scheduler.core.cycle.QueuePlanner}, the one public way to plan a cycle: the live
 *       scheduler, the simulator and the placement benchmarks all run it.</li>
 * </ol>
 * This package itself holds no class.
 */
package dev.muster.scheduler.core;
