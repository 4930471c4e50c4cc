package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.dra.DeviceAllocator;
import dev.muster.scheduler.core.dra.DeviceClaim;
import dev.muster.scheduler.core.dra.DeviceInventory;
import dev.muster.scheduler.core.dra.DeviceLedger;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.UnschedulableMessage;
import java.util.Map;
import java.util.TreeMap;

/**
 * Names the claim behind a shortage of a DeviceClass's devices: nodes that lack them count under
 * {@code Insufficient deviceclass.resource.kubernetes.io/<class>}, as kube-scheduler says for a class's
 * extended resource, and the reason gets the pod's claim that asks for them and what it asks, so the
 * message says which claim cannot be satisfied. Where devices the claim would take are left out on every node
 * (a slice's {@code perDeviceNodeSelection}), it says so too: counted on no node, they would otherwise be missing
 * without a word.
 */
final class DeviceShortfall {
    private static final String PREFIX = UnschedulableMessage.INSUFFICIENT + DeviceInventory.RESOURCE_PREFIX;

    private DeviceShortfall() {
    }

    /** The message with every device shortage naming the pod's claim; as it was if there is none. */
    static UnschedulableMessage name(UnschedulableMessage why, PodInfo pod, DeviceLedger ledger) {
        if (why == null || pod == null || pod.deviceClaims().isEmpty()) {
            return why;
        }
        Map<String, Integer> reasons = new TreeMap<>();
        boolean named = false;
        for (Map.Entry<String, Integer> entry : why.reasonCounts().entrySet()) {
            String reason = entry.getKey();
            if (reason.startsWith(PREFIX)) {
                String resource = reason.substring(UnschedulableMessage.INSUFFICIENT.length());
                for (String key : pod.deviceClaims()) {
                    DeviceClaim claim = ledger.claim(key);
                    if (claim != null && claim.deviceCounts().containsKey(resource)) {
                        String everywhere = ledger.inventory().leftOutEverywhere(claim);
                        reason = reason + " (" + claim.title() + ": " + DeviceAllocator.describe(claim)
                                + (everywhere == null ? "" : "; devices left out on every node: " + everywhere) + ")";
                        named = true;
                        break;
                    }
                }
            }
            reasons.merge(reason, entry.getValue(), Integer::sum);
        }
        return named ? new UnschedulableMessage(why.nodeCount(), reasons) : why;
    }
}
