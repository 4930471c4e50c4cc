/**
 * The gang scheduler's adapter to Kubernetes: {@link dev.muster.scheduler.GangScheduler} feeds the
 * placement core ({@code dev.muster.scheduler.core}) from informers (nodes, pods, PodGroups,
 * PriorityClasses, namespaces, whose labels namespaceSelectors select, Jobs, whose pods, rendered as the Job
 * controller renders them ({@code dev.muster.rendering}), give the quorum of a gang admitted before its pods
 * exist, Queues, and claims, volumes and storage classes for
 * volume topology), binds what it places through the Binding API, evicts preemption victims through the
 * Eviction API, writes Queue status and {@code PodScheduled} conditions of pods it cannot place, records a
 * {@code FailedScheduling} event per gang per distinct reason, keeps Micrometer meters, and hands PodGroup verdicts to the
 * PodGroup controller through a {@link dev.muster.gang.GangVerdictBoard}. See
 * {@code docs/scheduling.md}.
 */
package dev.muster.scheduler;
