/**
 * Dynamic Resource Allocation in the simulated cluster: the simulated GPU driver's ResourceSlices and DeviceClass,
 * how GPUs are offered ({@link dev.muster.local.dra.GpuApi}), a pod's resource claims, and the simulated
 * resourceclaim controller that makes claims from templates and keeps reservations.
 *
 * <p>May use informer only; talks to the API server through a Kubernetes client. Used by node and
 * {@code dev.muster.local}.
 */
package dev.muster.local.dra;
