/**
 * Who gives up room, and who may use room held for another. For preemption,
 * {@link dev.muster.scheduler.core.preemption.VictimSearch} finds the running gangs' surplus members or
 * whole gangs whose eviction lets a waiting gang's trial place it, within a
 * {@link dev.muster.scheduler.core.preemption.VictimBudget}, as a verified
 * {@link dev.muster.scheduler.core.preemption.Preemption}; a cycle's
 * {@link dev.muster.scheduler.core.preemption.PreemptionRound} applies it within a queue and, as reclaim
 * ({@link dev.muster.scheduler.core.preemption.ReclaimBudget},
 * {@link dev.muster.scheduler.core.preemption.ReclaimOutlook}), across queues, emitting
 * {@link dev.muster.scheduler.core.preemption.Eviction}s; the freed room is promised to the preemptor
 * ({@link dev.muster.scheduler.core.preemption.Promises}). For backfill,
 * {@link dev.muster.scheduler.core.preemption.BackfillReservation} holds room for a queue's head gang and
 * lets a gang that ends before it is needed use it.
 *
 * <p>May depend on {@code model}, {@code cluster}, {@code placement} and {@code queue}.
 */
package dev.muster.scheduler.core.preemption;
