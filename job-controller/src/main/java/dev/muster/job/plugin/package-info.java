/**
 * The objects a job's plugins want beside its pods ({@code svc}'s Service, host lists and NetworkPolicy,
 * {@code ssh}'s key Secret, {@code mpi}'s hostfile, {@code ray}'s head Service, {@code spec.volumes}' claims),
 * registered in {@link dev.muster.job.plugin.JobPlugins}; what the plugins add to the pods is
 * {@code job-rendering}'s ({@code dev.muster.rendering.plugin}). Pure functions of the job, like the decisions,
 * which read them ({@code status.controlledResources}, the claims a job waits for); the I/O package
 * {@code dev.muster.job} creates the objects and is never used from here ({@code JobControllerArchitectureTest}).
 */
package dev.muster.job.plugin;
