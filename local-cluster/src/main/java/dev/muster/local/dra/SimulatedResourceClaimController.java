package dev.muster.local.dra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.local.informer.InformerSync;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * kube-controller-manager's resourceclaim controller for the local cluster, driven only through the API. For a pod
 * whose {@code spec.resourceClaims} names a ResourceClaimTemplate it creates the claim from the template
 * ({@link PodResourceClaims#generatedClaim}: owned by the pod, so that the claim is deleted with it) and records it in
 * the pod's {@code status.resourceClaimStatuses}; for a bound pod it reserves an allocated claim the pod names but
 * that is not reserved for it. For a claim, it drops from {@code status.reservedFor} the pods that are gone or done;
 * once no consumer is left it deallocates the claim (clears {@code status.allocation}) if the scheduler protected
 * it with {@value PodResourceClaims#DELETE_PROTECTION_FINALIZER}, then takes the finalizer off, and it deletes a
 * claim generated for a pod that is done. Writes carry the resourceVersion they were computed from; a conflict is
 * left to the informer event that follows it, which syncs the object again. It watches pods only once a claim or a
 * template exists ({@link #watchPods}). A few workers sync pods and claims, never two the same one at once.
 */
public final class SimulatedResourceClaimController implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SimulatedResourceClaimController.class);
    private static final int MAX_CONFLICT_RETRIES = 10;
    private static final String POD_KEY = "pod:";
    private static final String CLAIM_KEY = "claim:";
    /** Claims by the uid of the pod that controls them: a pod's generated claims, found without a scan. */
    private static final String OWNER_POD_INDEX = "ownerPod";
    /** Claim creations and status writes block on HTTP; a few workers keep a burst of pods from queueing. */
    private static final int WORKERS = 4;

    private final KubernetesClient client;
    private final SharedIndexInformer<Pod> podInformer;
    private final SharedIndexInformer<GenericKubernetesResource> claimInformer;
    private final SharedIndexInformer<GenericKubernetesResource> templateInformer;
    private final ExecutorService workers;
    /**
     * As client-go's work queue: the keys waiting for a worker, each once, and the keys a worker is syncing; a key
     * queued while it syncs waits until that sync ends, so that no two workers sync one pod or claim at once.
     * Guarded by {@code this}.
     */
    private final Set<String> queued = new HashSet<>();
    private final Set<String> processing = new HashSet<>();
    /**
     * Whether pods are watched: only once a claim or a template exists, so that a cluster without DRA does not pay
     * for another watch of every pod (each pod write is sent to, and decoded by, every watcher in this JVM).
     */
    private final AtomicBoolean watchingPods = new AtomicBoolean();
    /**
     * The claims this controller created, by pod uid and entry, until the pod is gone: the informers may show the pod
     * without its new {@code resourceClaimStatuses} and not show the claim yet, and a claim must not be made twice.
     */
    private final Map<String, String> createdClaims = new ConcurrentHashMap<>();

    private SimulatedResourceClaimController(KubernetesClient client) {
        this.client = client;
        this.podInformer = client.pods().inAnyNamespace().runnableInformer(0);
        this.claimInformer = claims(client).inAnyNamespace().runnableInformer(0);
        this.claimInformer.addIndexers(Map.of(OWNER_POD_INDEX, claim -> {
            String owner = PodResourceClaims.ownerPodUid(Serialization.jsonMapper().valueToTree(claim));
            return owner == null ? List.of() : List.of(owner);
        }));
        this.templateInformer = client.genericKubernetesResources(SimulatedGpuDriver.API_VERSION, "ResourceClaimTemplate")
                .inAnyNamespace().runnableInformer(0);
        AtomicInteger threads = new AtomicInteger();
        this.workers = Executors.newFixedThreadPool(WORKERS, r -> {
            Thread thread = new Thread(r, "simulated-resourceclaim-controller-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Starts a controller that uses {@code client} (and closes it when closed), once its informers have listed. */
    public static SimulatedResourceClaimController start(KubernetesClient client) {
        SimulatedResourceClaimController controller = new SimulatedResourceClaimController(client);
        controller.podInformer.addEventHandler(controller.new PodHandler());
        controller.claimInformer.addEventHandler(controller.new ClaimHandler());
        controller.templateInformer.addEventHandler(controller.new TemplateHandler());
        // The pod informer starts later (watchPods), once a claim or template exists.
        InformerSync.awaitAll("simulated resourceclaim controller", controller::close,
                controller.templateInformer, controller.claimInformer);
        return controller;
    }

    @Override
    public void close() {
        podInformer.close();
        claimInformer.close();
        templateInformer.close();
        workers.shutdownNow();
        client.close();
    }

    private static MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> claims(
            KubernetesClient client) {
        return client.genericKubernetesResources(SimulatedGpuDriver.API_VERSION, "ResourceClaim");
    }

    /**
     * Starts the pod informer, once. Its first list brings every pod as an addition, so pods created before the
     * first template are synced too; until it has listed, a reservation's pod is read from the API.
     */
    private void watchPods() {
        if (watchingPods.compareAndSet(false, true)) {
            podInformer.start();
            log.info("simulated resourceclaim controller watches pods now that DRA claims or templates exist");
        }
    }

    private synchronized void enqueue(String key) {
        if (workers.isShutdown()) {
            return;
        }
        if (queued.add(key) && !processing.contains(key)) {
            workers.execute(() -> process(key));
        }
    }

    private void process(String key) {
        synchronized (this) {
            queued.remove(key);
            processing.add(key);
        }
        try {
            if (key.startsWith(POD_KEY)) {
                syncPod(key.substring(POD_KEY.length()));
            } else {
                syncClaim(key.substring(CLAIM_KEY.length()));
            }
        } catch (KubernetesClientException e) {
            // A conflict means a newer version is on its way to the informer, which syncs it again.
            log.debug("could not sync {}: {}", key, e.getMessage());
        } catch (RuntimeException e) {
            log.warn("simulated resourceclaim controller failed to sync {}", key, e);
        } finally {
            synchronized (this) {
                processing.remove(key);
                if (queued.contains(key) && !workers.isShutdown()) {
                    workers.execute(() -> process(key));
                }
            }
        }
    }

    /** The claims the pod names or owns, which its changes may release. */
    private void enqueueClaimsOf(Pod pod) {
        String namespace = pod.getMetadata().getNamespace();
        PodResourceClaims.entries(pod).stream().filter(e -> e.claimName() != null)
                .forEach(e -> enqueue(CLAIM_KEY + namespace + "/" + e.claimName()));
        claimInformer.getIndexer().byIndex(OWNER_POD_INDEX, pod.getMetadata().getUid())
                .forEach(claim -> enqueue(CLAIM_KEY + Cache.metaNamespaceKeyFunc(claim)));
    }

    /** The claims the pod controls, which are the ones generated for it. */
    private List<JsonNode> claimsOwnedBy(Pod pod) {
        return claimInformer.getIndexer().byIndex(OWNER_POD_INDEX, pod.getMetadata().getUid()).stream()
                .<JsonNode>map(claim -> Serialization.jsonMapper().valueToTree(claim)).toList();
    }

    private Optional<JsonNode> claim(String namespace, String name) {
        return Optional.ofNullable(claimInformer.getStore().getByKey(namespace + "/" + name))
                .map(claim -> Serialization.jsonMapper().valueToTree(claim));
    }

    private void syncPod(String key) {
        Pod pod = podInformer.getStore().getByKey(key);
        // A pod that is going or done needs no claim any more: one deleted for it is not made again.
        if (pod == null || pod.getMetadata().getDeletionTimestamp() != null || PodResourceClaims.isDone(pod)) {
            return;
        }
        String namespace = pod.getMetadata().getNamespace();
        Map<String, String> created = new LinkedHashMap<>();
        for (PodResourceClaims.Entry entry : PodResourceClaims.entries(pod)) {
            if (!entry.generated() || !entry.awaitsCreation() && (entry.claimName() == null
                    || existsForPod(pod, entry.claimName()))) {
                continue;
            }
            String createdBefore = createdClaims.get(createdKey(pod, entry.podClaimName()));
            Optional<String> existing = entry.awaitsCreation() && createdBefore != null ? Optional.of(createdBefore)
                    : PodResourceClaims.generatedFor(pod, entry.podClaimName(), claimsOwnedBy(pod))
                    .map(claim -> claim.path("metadata").path("name").asText());
            if (existing.isPresent()) {
                created.put(entry.podClaimName(), existing.get());
                continue;
            }
            GenericKubernetesResource template = templateInformer.getStore().getByKey(namespace + "/" + entry.templateName());
            if (template == null) {
                // Retried when the template appears (TemplateHandler).
                log.warn("pod {}: resource claim template {} not found for claim {}", key, entry.templateName(),
                        entry.podClaimName());
                continue;
            }
            ObjectNode claim = PodResourceClaims.generatedClaim(pod, entry.podClaimName(),
                    Serialization.jsonMapper().valueToTree(template));
            GenericKubernetesResource stored = claims(client).inNamespace(namespace)
                    .resource(Serialization.jsonMapper().convertValue(claim, GenericKubernetesResource.class)).create();
            log.info("created ResourceClaim {}/{} for claim {} of pod {} from template {}", namespace,
                    stored.getMetadata().getName(), entry.podClaimName(), key, entry.templateName());
            created.put(entry.podClaimName(), stored.getMetadata().getName());
            createdClaims.put(createdKey(pod, entry.podClaimName()), stored.getMetadata().getName());
        }
        if (!created.isEmpty()) {
            recordClaimStatuses(pod, created);
        }
        if (pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty()) {
            reserveForBoundPod(pod);
        }
    }

    /**
     * Whether the claim of that name exists and is the pod's: the informer may not have seen a claim created a moment
     * ago, so the API is asked before a claim is created again.
     */
    private boolean existsForPod(Pod pod, String claimName) {
        Optional<JsonNode> claim = claim(pod.getMetadata().getNamespace(), claimName);
        if (claim.isEmpty()) {
            claim = Optional.ofNullable(claims(client).inNamespace(pod.getMetadata().getNamespace()).withName(claimName).get())
                    .map(found -> Serialization.jsonMapper().valueToTree(found));
        }
        return claim.map(PodResourceClaims::ownerPodUid).filter(pod.getMetadata().getUid()::equals).isPresent();
    }

    private static String createdKey(Pod pod, String podClaimName) {
        return pod.getMetadata().getUid() + "/" + podClaimName;
    }

    /** Writes the pod's {@code status.resourceClaimStatuses} with the claims created for it, retrying on conflicts. */
    private void recordClaimStatuses(Pod pod, Map<String, String> created) {
        Pod current = Serialization.clone(pod);
        for (int attempt = 1; attempt <= MAX_CONFLICT_RETRIES; attempt++) {
            if (attempt > 1) {
                current = client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).get();
                if (current == null || !current.getMetadata().getUid().equals(pod.getMetadata().getUid())) {
                    return;
                }
            }
            if (current.getStatus() == null) {
                current.setStatus(new PodStatus());
            }
            List<PodResourceClaimStatus> recorded = current.getStatus().getResourceClaimStatuses();
            List<PodResourceClaimStatus> statuses = new ArrayList<>(recorded);
            statuses.removeIf(s -> created.containsKey(s.getName()));
            created.forEach((podClaim, claim) -> statuses.add(new PodResourceClaimStatus(podClaim, claim)));
            if (statuses.containsAll(recorded) && recorded.containsAll(statuses)) {
                return;
            }
            current.getStatus().setResourceClaimStatuses(statuses);
            try {
                client.resource(current).updateStatus();
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                    throw e;
                }
            }
        }
        log.warn("gave up recording the claims of pod {}/{} after {} conflicts", pod.getMetadata().getNamespace(),
                pod.getMetadata().getName(), MAX_CONFLICT_RETRIES);
    }

    /** A pod bound without the scheduler's reservation (e.g. by {@code spec.nodeName}) gets its allocated claims reserved. */
    private void reserveForBoundPod(Pod pod) {
        String namespace = pod.getMetadata().getNamespace();
        for (PodResourceClaims.Entry entry : PodResourceClaims.entries(pod)) {
            if (entry.claimName() == null) {
                continue;
            }
            Optional<JsonNode> claim = claim(namespace, entry.claimName());
            if (claim.isEmpty() || !PodResourceClaims.allocated(claim.get())
                    || PodResourceClaims.reservedFor(claim.get(), pod)
                    || claim.get().path("status").path("reservedFor").size() >= PodResourceClaims.MAX_RESERVED_FOR) {
                continue;
            }
            ObjectNode updated = claim.get().deepCopy();
            ((ObjectNode) updated.path("status")).withArray("reservedFor").addObject().put("resource", "pods")
                    .put("name", pod.getMetadata().getName()).put("uid", pod.getMetadata().getUid());
            writeStatus(updated);
            log.info("reserved ResourceClaim {}/{} for bound pod {}", namespace, entry.claimName(),
                    pod.getMetadata().getName());
        }
    }

    private void syncClaim(String key) {
        GenericKubernetesResource stored = claimInformer.getStore().getByKey(key);
        if (stored == null) {
            return;
        }
        ObjectNode claim = Serialization.jsonMapper().valueToTree(stored);
        String namespace = stored.getMetadata().getNamespace();
        List<JsonNode> kept = PodResourceClaims.reservationsKept(claim, name -> pod(namespace, name));
        boolean protectedByFinalizer = hasFinalizer(claim);
        int reserved = claim.path("status").path("reservedFor").size();
        if (kept.size() < reserved) {
            ObjectNode updated = claim.deepCopy();
            ObjectNode status = (ObjectNode) updated.path("status");
            ArrayNode reservedFor = status.putArray("reservedFor");
            kept.forEach(reservedFor::add);
            // As kube-controller-manager: a claim whose last consumer is gone is deallocated, so that its devices
            // are free and a later consumer may get it allocated anywhere.
            if (kept.isEmpty() && protectedByFinalizer) {
                status.remove("allocation");
            }
            claim = writeStatus(updated);
            log.info("ResourceClaim {}: {} of {} reservations released{}", key, reserved - kept.size(), reserved,
                    kept.isEmpty() && protectedByFinalizer ? ", deallocated" : "");
            if (protectedByFinalizer && !PodResourceClaims.allocated(claim)) {
                claim = removeFinalizer(claim);
            }
        } else if (protectedByFinalizer && kept.isEmpty() && claim.path("metadata").hasNonNull("deletionTimestamp")) {
            if (PodResourceClaims.allocated(claim)) {
                ObjectNode updated = claim.deepCopy();
                ((ObjectNode) updated.path("status")).remove("allocation");
                claim = writeStatus(updated);
            }
            claim = removeFinalizer(claim);
        }
        if (kept.isEmpty()) {
            deleteIfOwnerDone(key, claim);
        }
    }

    /** kube-controller-manager deletes an unused claim generated for a pod that will not run any more. */
    private void deleteIfOwnerDone(String key, JsonNode claim) {
        String ownerUid = PodResourceClaims.ownerPodUid(claim);
        if (ownerUid == null || claim.path("metadata").hasNonNull("deletionTimestamp")) {
            return;
        }
        Pod owner = podInformer.getStore().getByKey(claim.path("metadata").path("namespace").asText() + "/"
                + PodResourceClaims.ownerPodName(claim));
        // A pod not in the informer may be one it has not seen yet: the garbage collector deletes the claim if it is gone.
        if (owner != null && (!owner.getMetadata().getUid().equals(ownerUid) || PodResourceClaims.isDone(owner))) {
            claims(client).inNamespace(owner.getMetadata().getNamespace())
                    .withName(claim.path("metadata").path("name").asText()).delete();
            log.info("deleted ResourceClaim {}: its pod {} is done", key, owner.getMetadata().getName());
        }
    }

    /** The pod of a name, from the informer or, when it has not seen one, from the API: a reservation is not dropped on a guess. */
    private Optional<Pod> pod(String namespace, String name) {
        Pod cached = podInformer.getStore().getByKey(namespace + "/" + name);
        if (cached != null) {
            return Optional.of(cached);
        }
        return Optional.ofNullable(client.pods().inNamespace(namespace).withName(name).get());
    }

    /** Replaces the claim's status on the resourceVersion it was read at; returns the claim as written. */
    private ObjectNode writeStatus(ObjectNode claim) {
        GenericKubernetesResource written = claims(client).inNamespace(claim.path("metadata").path("namespace").asText())
                .resource(Serialization.jsonMapper().convertValue(claim, GenericKubernetesResource.class)).updateStatus();
        return Serialization.jsonMapper().valueToTree(written);
    }

    private ObjectNode removeFinalizer(ObjectNode claim) {
        ObjectNode updated = claim.deepCopy();
        ArrayNode finalizers = (ArrayNode) updated.path("metadata").path("finalizers");
        for (int i = finalizers.size() - 1; i >= 0; i--) {
            if (PodResourceClaims.DELETE_PROTECTION_FINALIZER.equals(finalizers.get(i).asText())) {
                finalizers.remove(i);
            }
        }
        GenericKubernetesResource written = claims(client).inNamespace(claim.path("metadata").path("namespace").asText())
                .resource(Serialization.jsonMapper().convertValue(updated, GenericKubernetesResource.class)).update();
        return Serialization.jsonMapper().valueToTree(written);
    }

    private static boolean hasFinalizer(JsonNode claim) {
        for (JsonNode finalizer : claim.path("metadata").path("finalizers")) {
            if (PodResourceClaims.DELETE_PROTECTION_FINALIZER.equals(finalizer.asText())) {
                return true;
            }
        }
        return false;
    }

    private final class PodHandler implements ResourceEventHandler<Pod> {
        @Override
        public void onAdd(Pod pod) {
            if (!PodResourceClaims.entries(pod).isEmpty()) {
                enqueue(POD_KEY + Cache.metaNamespaceKeyFunc(pod));
            }
        }

        @Override
        public void onUpdate(Pod oldPod, Pod newPod) {
            if (!PodResourceClaims.entries(newPod).isEmpty()) {
                enqueue(POD_KEY + Cache.metaNamespaceKeyFunc(newPod));
                enqueueClaimsOf(newPod);
            }
        }

        @Override
        public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
            if (!PodResourceClaims.entries(pod).isEmpty()) {
                createdClaims.keySet().removeIf(k -> k.startsWith(pod.getMetadata().getUid() + "/"));
                enqueueClaimsOf(pod);
            }
        }
    }

    private final class ClaimHandler implements ResourceEventHandler<GenericKubernetesResource> {
        @Override
        public void onAdd(GenericKubernetesResource claim) {
            watchPods();
            enqueue(CLAIM_KEY + Cache.metaNamespaceKeyFunc(claim));
        }

        @Override
        public void onUpdate(GenericKubernetesResource oldClaim, GenericKubernetesResource newClaim) {
            enqueue(CLAIM_KEY + Cache.metaNamespaceKeyFunc(newClaim));
            // A bound pod waits for its claim's allocation to be reserved for it.
            String owner = PodResourceClaims.ownerPodName(Serialization.jsonMapper().valueToTree(newClaim));
            if (owner != null) {
                enqueue(POD_KEY + newClaim.getMetadata().getNamespace() + "/" + owner);
            }
        }

        @Override
        public void onDelete(GenericKubernetesResource claim, boolean deletedFinalStateUnknown) {
            // A generated claim deleted by accident is created again for its pod, as kube-controller-manager does.
            String owner = PodResourceClaims.ownerPodName(Serialization.jsonMapper().valueToTree(claim));
            if (owner != null) {
                enqueue(POD_KEY + claim.getMetadata().getNamespace() + "/" + owner);
            }
        }
    }

    private final class TemplateHandler implements ResourceEventHandler<GenericKubernetesResource> {
        @Override
        public void onAdd(GenericKubernetesResource template) {
            watchPods();
            podInformer.getIndexer().byIndex(Cache.NAMESPACE_INDEX, template.getMetadata().getNamespace()).stream()
                    .filter(pod -> PodResourceClaims.entries(pod).stream()
                            .anyMatch(e -> e.awaitsCreation() && template.getMetadata().getName().equals(e.templateName())))
                    .forEach(pod -> enqueue(POD_KEY + Cache.metaNamespaceKeyFunc(pod)));
        }

        @Override
        public void onUpdate(GenericKubernetesResource oldTemplate, GenericKubernetesResource newTemplate) {
            // a template is read when a claim is created from it
        }

        @Override
        public void onDelete(GenericKubernetesResource template, boolean deletedFinalStateUnknown) {
            // claims already created keep their spec
        }
    }
}
