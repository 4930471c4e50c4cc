/**
 * Queues and fair share: the queue tree ({@link dev.muster.scheduler.core.queue.QueueTree}), fair shares
 * by hierarchical water-filling ({@code FairShare}), one cycle's accounts of the queues
 * ({@link dev.muster.scheduler.core.queue.QueueLedger}) and where each queue stands at its end
 * ({@link dev.muster.scheduler.core.queue.QueueStanding}), the order of gangs within a queue
 * ({@link dev.muster.scheduler.core.queue.GangOrder}), and why a gang is held back
 * ({@link dev.muster.scheduler.core.queue.QueueHold}, {@link dev.muster.scheduler.core.queue.MinResourcesGate},
 * {@link dev.muster.scheduler.core.queue.NamespaceQuotaGate}).
 *
 * <p>May depend on {@code model}, {@code cluster} and {@code placement}; knows nothing of preemption or of
 * how a cycle is run.
 */
package dev.muster.scheduler.core.queue;
