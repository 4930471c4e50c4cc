package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.cluster.NodeState;
import dev.muster.scheduler.core.dra.DeviceAllocation;
import dev.muster.scheduler.core.dra.DeviceAllocator;
import dev.muster.scheduler.core.dra.DeviceClaim;
import dev.muster.scheduler.core.dra.DeviceLedger;
import dev.muster.scheduler.core.model.PodInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * kube-scheduler's DynamicResources filter for one pod in a gang trial: a node passes if the pod's
 * ResourceClaims can be allocated there with the devices the ledger has free now, which excludes those
 * the gang's earlier members took in the same trial. The allocation found for the node last judged is
 * kept, so that placing the pod there does not search again.
 */
final class DeviceCheck implements PodFilter.NodeCheck {
    private final NodeState[] nodes;
    private final DeviceAllocator allocator;
    private final List<DeviceClaim> claims;
    /** Why no node passes, when a claim does not exist yet; {@code null} otherwise. */
    private final String missing;
    private int lastNode = -1;
    private Map<String, DeviceAllocation> lastAllocation;

    private DeviceCheck(NodeState[] nodes, DeviceLedger ledger, List<DeviceClaim> claims, String missing) {
        this.nodes = nodes;
        this.allocator = new DeviceAllocator(ledger);
        this.claims = claims;
        this.missing = missing;
    }

    /** The check for the pod, or {@code null} if it claims no devices. */
    static DeviceCheck prepare(PodInfo pod, NodeState[] nodes, DeviceLedger ledger) {
        if (pod.deviceClaims().isEmpty()) {
            return null;
        }
        List<DeviceClaim> claims = new ArrayList<>(pod.deviceClaims().size());
        for (String key : pod.deviceClaims()) {
            DeviceClaim claim = ledger.claim(key);
            if (claim == null) {
                return new DeviceCheck(nodes, ledger, List.of(), DeviceClaim.missing(key));
            }
            claims.add(claim);
        }
        return new DeviceCheck(nodes, ledger, claims, null);
    }

    @Override
    public String reject(int node) {
        return missing != null ? missing : allocator.whyNot(claims, nodes[node].info());
    }

    @Override
    public boolean passes(int node) {
        return allocation(node) != null;
    }

    /** The allocations of the pod's unallocated claims on the node, or {@code null} if they cannot be allocated. */
    Map<String, DeviceAllocation> allocation(int node) {
        if (missing != null) {
            return null;
        }
        if (node != lastNode) {
            lastAllocation = allocator.allocate(claims, nodes[node].info());
            lastNode = node;
        }
        return lastAllocation;
    }
}
