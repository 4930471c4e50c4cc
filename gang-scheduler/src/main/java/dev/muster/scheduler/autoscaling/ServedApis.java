package dev.muster.scheduler.autoscaling;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.net.HttpURLConnection;

/**
 * Which autoscaler APIs the API server serves, by discovery (which {@code system:discovery} allows everyone, so
 * it needs no grant): Cluster Autoscaler's ProvisioningRequests, and Karpenter's NodePools, whose presence says an
 * autoscaler that watches pending pods runs.
 */
public final class ServedApis {
    /** Karpenter's API group and version. */
    static final String KARPENTER_GROUP_VERSION = "karpenter.sh/v1";
    /** Karpenter's NodePool resource. */
    static final String KARPENTER_NODE_POOLS = "nodepools";

    private ServedApis() {
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

    private static boolean serves(KubernetesClient client, String groupVersion, String plural) {
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
