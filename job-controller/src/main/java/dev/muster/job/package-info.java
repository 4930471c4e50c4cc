/**
 * The Job controller's Kubernetes I/O, a thin layer around the pure decisions. {@link dev.muster.job.JobController}
 * wires the shared informers to a keyed work queue; {@code JobReconciler} reads one job, its pods,
 * its PodGroup, its queue and its claims from the {@code JobCache}, asks
 * {@link dev.muster.job.decision.JobStatusDecider} what should be true, hands the status to the
 * {@link dev.muster.support.status.StatusRecorder} (written only when it changed, with optimistic locking) and
 * makes the children match through {@code JobResourceWriter} (with the PodGroup fields it owns merged
 * into the copy it read, {@code OwnedPodGroupFields}). Beside them: the controller's
 * memory of its own pod deletions ({@code DeletedPods}), the pacing of count-only status writes
 * ({@code JobCounters}), the batches pods are created in ({@code SlowStartBatch}),
 * the condition and Event of fields accepted but not honoured ({@code FieldsNotHonoured}: a function of the
 * job, but made in the status recorder's terms, its Event and the Event size limit), the {@code ReconcileFailing}
 * condition ({@code ReconcileFailureRecorder}) and the controller's settings
 * ({@link dev.muster.job.JobControllerConfig}).
 *
 * <p>Arrows point one way: this package uses {@code dev.muster.job.decision} (what to do) and
 * {@code dev.muster.job.lifecycle} (the phase machine); neither of them uses this package, a Kubernetes client,
 * an informer or Spring ({@code JobControllerArchitectureTest} checks it). See {@code docs/job-lifecycle.md}.
 */
package dev.muster.job;
