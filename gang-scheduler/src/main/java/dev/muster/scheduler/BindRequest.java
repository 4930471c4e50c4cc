package dev.muster.scheduler;

import dev.muster.scheduler.core.dra.DeviceAllocation;
import io.fabric8.kubernetes.client.informers.cache.Cache;

import java.util.List;

/**
 * A pod the cycle assumed onto a node and that is to be bound there.
 *
 * @param namespace         pod namespace
 * @param podName           pod name
 * @param uid               pod UID; the binding names it so that a pod recreated under the same name is not
 *                          bound
 * @param nodeName          target node
 * @param claimsToProvision the pod's unbound claims with {@code WaitForFirstConsumer} binding, to be told
 *                          the node before the pod is bound
 * @param deviceClaims      the pod's ResourceClaims, to be reserved for it (and allocated, where the cycle
 *                          allocated them) before the pod is bound
 */
record BindRequest(String namespace, String podName, String uid, String nodeName, List<String> claimsToProvision,
                   List<DeviceClaimWrite> deviceClaims) {

    BindRequest {
        claimsToProvision = List.copyOf(claimsToProvision);
        deviceClaims = List.copyOf(deviceClaims);
    }

    /** A pod without ResourceClaims. */
    BindRequest(String namespace, String podName, String uid, String nodeName, List<String> claimsToProvision) {
        this(namespace, podName, uid, nodeName, claimsToProvision, List.of());
    }

    /**
     * What the binder writes to one ResourceClaim's status before the binding.
     *
     * @param name       the claim's name, in the pod's namespace
     * @param allocation the allocation the cycle made, to write; {@code null} if the claim is already allocated
     *                   and only needs the pod in {@code reservedFor}
     */
    record DeviceClaimWrite(String name, DeviceAllocation allocation) {
    }

    /** The pod's key in the informer's store and the cache. */
    String podKey() {
        return Cache.namespaceKeyFunc(namespace, podName);
    }
}
