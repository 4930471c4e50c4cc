package dev.muster.local.quota;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.local.informer.PodCountingStatusLoop;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ResourceQuotaStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * kube-controller-manager's resource quota controller for the local cluster, driven only through the API: it
 * watches ResourceQuotas and pods and keeps each quota's {@code status.hard} and {@code status.used} as
 * {@link PodQuota#status} computes them, as pods are created, change phase and are deleted and as quotas are
 * written. The pods are listed from the API at each sync rather than from the informer's cache, which may not
 * have seen a pod whose creation already raised the quota ({@link QuotaAdmission}): a sync from the cache would
 * lower it again until the pod's event arrives. The status is written with the resourceVersion it was computed
 * from, and only when it changed; a conflict is left to the update event that follows it.
 */
public final class SimulatedQuotaController implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SimulatedQuotaController.class);

    private final KubernetesClient client;
    private final PodCountingStatusLoop<ResourceQuota> loop;

    private SimulatedQuotaController(KubernetesClient client) {
        this.client = client;
        this.loop = new PodCountingStatusLoop<>("simulated quota controller", client,
                client.resourceQuotas().inAnyNamespace().runnableInformer(0), this::sync);
    }

    /** Starts a controller that uses {@code client} (and closes it when closed), once its informers have listed. */
    public static SimulatedQuotaController start(KubernetesClient client) {
        SimulatedQuotaController controller = new SimulatedQuotaController(client);
        controller.loop.start();
        return controller;
    }

    @Override
    public void close() {
        loop.close();
    }

    private void sync(String key, ResourceQuota quota) {
        try {
            List<JsonNode> pods = client.pods().inNamespace(quota.getMetadata().getNamespace()).list().getItems()
                    .stream().<JsonNode>map(pod -> Serialization.jsonMapper().valueToTree(pod)).toList();
            Instant now = Instant.now();
            PodQuota.nextExpiry(pods, now).ifPresent(at -> loop.enqueue(key, Duration.between(now, at).plusSeconds(1)));
            ObjectNode status = PodQuota.status(Serialization.jsonMapper().valueToTree(quota), pods, now);
            // Compared as JSON of the same model: the stored amounts may be written otherwise than computed.
            ResourceQuotaStatus computed = Serialization.jsonMapper().convertValue(status, ResourceQuotaStatus.class);
            if (quota.getStatus() != null && Serialization.jsonMapper().valueToTree(computed)
                    .equals(Serialization.jsonMapper().valueToTree(quota.getStatus()))) {
                return;
            }
            ResourceQuota updated = Serialization.clone(quota);
            updated.setStatus(computed);
            client.resource(updated).updateStatus();
            log.debug("ResourceQuota {} uses {} of {}", key, status.path("used"), status.path("hard"));
        } catch (KubernetesClientException | IllegalArgumentException e) {
            // A conflict means a newer version is on its way to the informer, which syncs the quota again.
            log.debug("could not update the status of ResourceQuota {}: {}", key, e.getMessage());
        }
    }
}
