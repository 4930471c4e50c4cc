package dev.muster.scheduler.core.cluster;

import dev.muster.scheduler.core.dra.DeviceLedger;
import dev.muster.scheduler.core.model.NamespaceQuota;
import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.QuotaFacts;
import dev.muster.scheduler.core.model.ResourceVector;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A consistent copy of the nodes and what their pods request, taken once per scheduling cycle from
 * {@link ClusterState}. Gang trials place pods on it tentatively; the informers keep changing the
 * cluster state meanwhile without disturbing the cycle. Nodes are sorted by name, which makes ties in
 * scoring break the same way every time.
 */
public final class ClusterSnapshot {
    private final NodeState[] nodes;
    private final Map<String, Map<String, String>> namespaceLabels;
    private final DeviceLedger devices;
    private final Map<String, List<NamespaceQuota>> namespaceQuotas;
    private final Map<String, QuotaFacts> expectedPodQuotaFacts;

    ClusterSnapshot(NodeState[] nodes, Map<String, Map<String, String>> namespaceLabels) {
        this(nodes, namespaceLabels, DeviceLedger.empty(), Map.of(), Map.of());
    }

    private ClusterSnapshot(NodeState[] nodes, Map<String, Map<String, String>> namespaceLabels, DeviceLedger devices,
                            Map<String, List<NamespaceQuota>> namespaceQuotas,
                            Map<String, QuotaFacts> expectedPodQuotaFacts) {
        this.nodes = nodes;
        this.namespaceLabels = namespaceLabels;
        this.devices = devices;
        this.namespaceQuotas = namespaceQuotas;
        this.expectedPodQuotaFacts = expectedPodQuotaFacts;
    }

    /**
     * This snapshot with the namespaces' ResourceQuotas, which hold gangs whose pods they would refuse.
     *
     * @param quotas                per namespace, its quotas
     * @param expectedPodQuotaFacts per pod still to be created ({@code namespace/name}) in a namespace with quotas,
     *                              its limits and what the quotas' scopes select it by
     */
    public ClusterSnapshot withNamespaceQuotas(Map<String, List<NamespaceQuota>> quotas,
                                               Map<String, QuotaFacts> expectedPodQuotaFacts) {
        return new ClusterSnapshot(nodes, namespaceLabels, devices, Map.copyOf(quotas), Map.copyOf(expectedPodQuotaFacts));
    }

    /** Per namespace that has any, its ResourceQuotas as the scheduler judges gangs by them. */
    public Map<String, List<NamespaceQuota>> namespaceQuotas() {
        return namespaceQuotas;
    }

    /** Per pod still to be created, by {@code namespace/name}, what quotas read of it beyond its requests. */
    public Map<String, QuotaFacts> expectedPodQuotaFacts() {
        return expectedPodQuotaFacts;
    }

    /**
     * This snapshot with the cycle's devices and claims, each node offering, per DeviceClass, the devices
     * a pod on it can use as the resource {@code deviceclass.resource.kubernetes.io/<class>}, which the pods'
     * requests count for the claims made from their templates (so nodes without free devices drop out of
     * the shape indexes by counts, and queues can limit devices): the trials on it allocate the claims of the pods
     * they place from the ledger and record what they allocate in it. Call before the first trial.
     */
    public ClusterSnapshot withDevices(DeviceLedger ledger) {
        NodeState[] withDevices = new NodeState[nodes.length];
        for (int n = 0; n < nodes.length; n++) {
            NodeState node = nodes[n];
            Map<String, Long> totals = ledger.inventory().classTotals(node.info());
            if (totals.isEmpty()) {
                withDevices[n] = node;
                continue;
            }
            NodeInfo info = node.info();
            NodeInfo extended = new NodeInfo(info.name(), info.labels(),
                    info.allocatable().plus(ResourceVector.of(totals)), info.ready(), info.unschedulable(), info.taints());
            withDevices[n] = node.withInfo(extended);
        }
        return new ClusterSnapshot(withDevices, namespaceLabels, ledger, namespaceQuotas, expectedPodQuotaFacts);
    }

    /** The cycle's devices and claims, with what its trials allocated so far. */
    public DeviceLedger devices() {
        return devices;
    }

    /** Nodes in the snapshot, schedulable or not. */
    public int nodeCount() {
        return nodes.length;
    }

    /** The nodes, sorted by name. */
    public List<NodeState> nodes() {
        return Collections.unmodifiableList(Arrays.asList(nodes));
    }

    /** A node by name. */
    public Optional<NodeState> node(String name) {
        int low = 0;
        int high = nodes.length - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            int cmp = nodes[mid].name().compareTo(name);
            if (cmp == 0) {
                return Optional.of(nodes[mid]);
            }
            if (cmp < 0) {
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        return Optional.empty();
    }

    /** Per namespace the scheduler knows, its labels. */
    public Map<String, Map<String, String>> namespaceLabels() {
        return namespaceLabels;
    }

    /**
     * The nodes' state, in node index order ({@link NodeState#index()}); the array itself, not a copy, for the hot
     * path.
     */
    public NodeState[] nodeArray() {
        return nodes;
    }
}
