package dev.muster.local.quota;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.local.informer.InformerSync;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ResourceQuotaStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

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
    private final SharedIndexInformer<ResourceQuota> quotaInformer;
    private final SharedIndexInformer<Pod> podInformer;
    /** One thread: quotas are synced one at a time, each at most once per wake-up. */
    private final ScheduledExecutorService worker;
    private final Set<String> queued = ConcurrentHashMap.newKeySet();

    private SimulatedQuotaController(KubernetesClient client) {
        this.client = client;
        this.quotaInformer = client.resourceQuotas().inAnyNamespace().runnableInformer(0);
        this.podInformer = client.pods().inAnyNamespace().runnableInformer(0);
        this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "simulated-quota-controller");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Starts a controller that uses {@code client} (and closes it when closed), once both informers have listed. */
    public static SimulatedQuotaController start(KubernetesClient client) {
        SimulatedQuotaController controller = new SimulatedQuotaController(client);
        controller.quotaInformer.addEventHandler(controller.new QuotaHandler());
        controller.podInformer.addEventHandler(controller.new PodHandler());
        InformerSync.awaitAll("simulated quota controller", controller::close,
                controller.podInformer, controller.quotaInformer);
        return controller;
    }

    @Override
    public void close() {
        quotaInformer.close();
        podInformer.close();
        worker.shutdownNow();
        client.close();
    }

    private void enqueue(String key, Duration delay) {
        if (queued.add(key + "@" + delay.toMillis())) {
            worker.schedule(() -> {
                queued.remove(key + "@" + delay.toMillis());
                sync(key);
            }, delay.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private void enqueueQuotasOf(Pod pod) {
        quotaInformer.getIndexer().byIndex(Cache.NAMESPACE_INDEX, pod.getMetadata().getNamespace())
                .forEach(quota -> enqueue(Cache.metaNamespaceKeyFunc(quota), Duration.ZERO));
    }

    private void sync(String key) {
        ResourceQuota quota = quotaInformer.getStore().getByKey(key);
        if (quota == null) {
            return;
        }
        try {
            List<JsonNode> pods = client.pods().inNamespace(quota.getMetadata().getNamespace()).list().getItems()
                    .stream().<JsonNode>map(pod -> Serialization.jsonMapper().valueToTree(pod)).toList();
            Instant now = Instant.now();
            PodQuota.nextExpiry(pods, now).ifPresent(at -> enqueue(key, Duration.between(now, at).plusSeconds(1)));
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

    private final class QuotaHandler implements ResourceEventHandler<ResourceQuota> {
        @Override
        public void onAdd(ResourceQuota quota) {
            enqueue(Cache.metaNamespaceKeyFunc(quota), Duration.ZERO);
        }

        @Override
        public void onUpdate(ResourceQuota oldQuota, ResourceQuota newQuota) {
            enqueue(Cache.metaNamespaceKeyFunc(newQuota), Duration.ZERO);
        }

        @Override
        public void onDelete(ResourceQuota quota, boolean deletedFinalStateUnknown) {
            // nothing left to keep up to date
        }
    }

    private final class PodHandler implements ResourceEventHandler<Pod> {
        @Override
        public void onAdd(Pod pod) {
            enqueueQuotasOf(pod);
        }

        @Override
        public void onUpdate(Pod oldPod, Pod newPod) {
            enqueueQuotasOf(newPod);
        }

        @Override
        public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
            enqueueQuotasOf(pod);
        }
    }
}
