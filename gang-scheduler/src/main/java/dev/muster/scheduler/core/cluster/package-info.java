/**
 * The cluster as the core keeps it: {@link dev.muster.scheduler.core.cluster.ClusterState} keeps the
 * nodes and the pods bound to them across cycles, with per-node usage kept incrementally, and hands out a
 * {@link dev.muster.scheduler.core.cluster.ClusterSnapshot} per cycle: the nodes' state
 * ({@link dev.muster.scheduler.core.cluster.NodeState}) and the device ledger, which the cycle's trials
 * change and undo.
 *
 * <p>May depend on {@code model} and {@code dra}; nothing here knows how gangs are placed.
 */
package dev.muster.scheduler.core.cluster;
