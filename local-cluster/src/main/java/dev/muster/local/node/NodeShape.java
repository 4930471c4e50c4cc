package dev.muster.local.node;

import dev.muster.local.dra.GpuApi;

/**
 * What each node of the uniform pool reports, and what a user-supplied node without capacity is given: the node
 * part of the local cluster's configuration, so that the simulated nodes do not depend on the whole of it.
 *
 * @param cpu              CPU capacity, as a Kubernetes quantity
 * @param memory           memory capacity, as a quantity
 * @param gpus             GPUs of each pool node; 0 for none
 * @param pods             pod capacity
 * @param ephemeralStorage {@code ephemeral-storage} capacity, as a quantity
 * @param hugepages1Gi     {@code hugepages-1Gi} capacity, as a quantity
 * @param hugepages2Mi     {@code hugepages-2Mi} capacity, as a quantity
 * @param instanceType     the {@code node.kubernetes.io/instance-type} label; {@code null} for none
 * @param gpuApi           how the GPUs are offered (as an extended resource, as DRA devices, or both)
 */
public record NodeShape(String cpu, String memory, int gpus, int pods, String ephemeralStorage, String hugepages1Gi,
                        String hugepages2Mi, String instanceType, GpuApi gpuApi) {
}
