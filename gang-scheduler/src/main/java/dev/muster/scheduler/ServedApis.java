package dev.muster.scheduler;

import dev.muster.scheduler.autoscaling.ProvisioningRequestApi;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.List;

/**
 * Which optional APIs the API server serves, by discovery, the one way the scheduler finds out: discovery is
 * allowed to everyone ({@code system:discovery}), so asking needs no grant beyond the chart's. Read once when the
 * scheduler starts: Dynamic Resource Allocation's ResourceSlices and DeviceTaintRules, Kubernetes' PodGroups, Cluster Autoscaler's ProvisioningRequests, and
 * Karpenter's NodePools, whose presence says an autoscaler that watches pending pods runs.
 */
public final class ServedApis {
    /** Karpenter's API group and version. */
    static final String KARPENTER_GROUP_VERSION = "karpenter.sh/v1";
    /** Karpenter's NodePool resource. */
    static final String KARPENTER_NODE_POOLS = "nodepools";
    /** DRA's resource the scheduler reads devices from; the group's other kinds come with it. */
    static final String RESOURCE_SLICES = "resourceslices";
    /** DRA's rules that taint devices, which the scheduler warns it does not honour. */
    static final String DEVICE_TAINT_RULES = "devicetaintrules";
    /**
     * The versions that serve DeviceTaintRules, newest first: alpha ({@code v1alpha3}) from Kubernetes 1.33, beta
     * ({@code v1beta2}) from 1.36, and {@code v1} once stable.
     */
    static final List<String> DEVICE_TAINT_RULE_VERSIONS = List.of("resource.k8s.io/v1", "resource.k8s.io/v1beta2",
            "resource.k8s.io/v1alpha3");

    private ServedApis() {
    }

    /** Whether {@code resource.k8s.io/v1} {@code resourceslices} (Dynamic Resource Allocation) are served. */
    public static boolean dynamicResourceAllocation(KubernetesClient client) {
        return serves(client, DraObjects.API_VERSION, RESOURCE_SLICES);
    }

    /**
     * The newest {@code resource.k8s.io} version that serves {@code devicetaintrules}, or {@code null} if none does
     * (the alpha and beta APIs are off unless the cluster enables them).
     */
    public static String deviceTaintRules(KubernetesClient client) {
        return newestServing(client, DEVICE_TAINT_RULE_VERSIONS, DEVICE_TAINT_RULES);
    }

    /**
     * The newest {@code scheduling.k8s.io} version that serves Kubernetes' own PodGroups ({@link WorkloadPodGroups}),
     * or {@code null} if none does (before Kubernetes 1.36, or with the {@code GenericWorkload} gate off).
     */
    public static String workloadPodGroups(KubernetesClient client) {
        return newestServing(client, WorkloadPodGroups.VERSIONS, WorkloadPodGroups.PLURAL);
    }

    /** The first of the group versions, newest first, whose resource list names the resource; {@code null} if none. */
    private static String newestServing(KubernetesClient client, List<String> versions, String plural) {
        for (String version : versions) {
            if (serves(client, version, plural)) {
                return version;
            }
        }
        return null;
    }

    /** Whether {@code autoscaling.x-k8s.io/v1} {@code provisioningrequests} are served. */
    public static boolean provisioningRequests(KubernetesClient client) {
        return serves(client, ProvisioningRequestApi.GROUP + "/" + ProvisioningRequestApi.VERSION,
                ProvisioningRequestApi.PLURAL);
    }

    /** Whether Karpenter's {@code karpenter.sh/v1} {@code nodepools} are served. */
    public static boolean karpenter(KubernetesClient client) {
        return serves(client, KARPENTER_GROUP_VERSION, KARPENTER_NODE_POOLS);
    }

    /**
     * Whether the group version's resource list names the resource; a group version the API server does not
     * know answers 404, which is "not served". Any other failure (the API server unreachable) is thrown.
     */
    static boolean serves(KubernetesClient client, String groupVersion, String plural) {
        try {
            var resources = client.getApiResources(groupVersion);
            return resources != null && resources.getResources() != null && resources.getResources().stream()
                    .anyMatch(resource -> plural.equals(resource.getName()));
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                return false;
            }
            throw e;
        }
    }
}
