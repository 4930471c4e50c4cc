/**
 * The Job controller's Kubernetes I/O, a thin layer around the pure decisions. {@link dev.muster.job.JobController}
 * wires the shared informers to a keyed work queue; {@link dev.muster.job.JobReconciler} reads one job, its pods,
 * its PodGroup, its queue and its claims from the {@link dev.muster.job.JobCache}, asks
 * {@link dev.muster.job.decision.JobStatusDecider} what should be true, hands the status to the
 * {@link dev.muster.support.status.StatusRecorder} (written only when it changed, with optimistic locking) and
 * makes the children match through {@link dev.muster.job.JobResourceWriter} (with the PodGroup fields it owns merged
 * into the copy it read, {@link dev.muster.job.OwnedPodGroupFields}). Beside them: the controller's
 * memory of its own pod deletions ({@link dev.muster.job.DeletedPods}), the pacing of count-only status writes
 * ({@link dev.muster.job.JobCounters}), the batches pods are created in ({@link dev.muster.job.SlowStartBatch}),
 * the condition and Event of fields accepted but not honoured ({@link dev.muster.job.FieldsNotHonoured}, made for
 * the status recorder) and the {@code ReconcileFailing} condition ({@link dev.muster.job.ReconcileFailureRecorder}).
 *
 * <p>Arrows point one way: this package uses {@code dev.muster.job.decision} (what to do) and
 * {@code dev.muster.job.lifecycle} (the phase machine); neither of them uses this package, a Kubernetes client,
 * an informer or Spring ({@code JobControllerArchitectureTest} checks it). See {@code docs/job-lifecycle.md}.
 */
package dev.muster.job;
