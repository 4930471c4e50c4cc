/**
 * The gang scheduler's adapter to Kubernetes: {@link dev.muster.scheduler.GangScheduler} feeds the
 * placement core ({@code dev.muster.scheduler.core}) from informers, binds what it places through the
 * Binding API, writes {@code PodScheduled} conditions of pods it cannot place, and hands PodGroup verdicts
 * to the PodGroup controller through a {@link dev.muster.support.gang.GangVerdictBoard}.
 */
package dev.muster.scheduler;
