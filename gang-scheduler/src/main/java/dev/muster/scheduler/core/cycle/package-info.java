/**
 * The production scheduling cycle: {@link dev.muster.scheduler.core.cycle.QueuePlanner} plans a cycle as a
 * {@link dev.muster.scheduler.core.cycle.CyclePlan}, trying first the gangs promised room, then the others
 * in the queues' order and within their limits ({@code QueueOrder}) through {@code GangQueue} (the
 * coscheduling semantics: backoff, the near-quorum reservation, admission;
 * {@link dev.muster.scheduler.core.cycle.CoschedulingArgs}), with backfill, and then lets the gangs that
 * found too little room preempt. {@code QueuePlanner} is the one public way to plan a cycle: the live
 * scheduler, the simulator and the placement benchmarks all run it.
 *
 * <p>The top of the core: may depend on every other package of it; none depends on it.
 */
package dev.muster.scheduler.core.cycle;
