package dev.muster.scheduler;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a pod's reservation (and the cycle's allocation) to a ResourceClaim's status, and takes it back.
 * A claim the scheduler allocates first gets the finalizer {@value #FINALIZER}, as kube-scheduler puts it,
 * which tells the resourceclaim controller to deallocate the claim once no pod reserves it (and keeps the
 * claim until then); the scheduler removes it with an allocation it takes back.
 * Every write is a status update carrying the resourceVersion just read, so a claim another writer changed
 * in between is read again rather than overwritten; an allocation is written only to a claim that has
 * none.
 */
final class DeviceClaimWriter {
    private static final Logger log = LoggerFactory.getLogger(DeviceClaimWriter.class);
    static final ResourceDefinitionContext CLAIMS = new ResourceDefinitionContext.Builder()
            .withGroup("resource.k8s.io").withVersion("v1").withKind("ResourceClaim").withPlural("resourceclaims")
            .withNamespaced(true).build();
    /** kube-scheduler's finalizer on a claim it allocated. */
    static final String FINALIZER = "resource.kubernetes.io/delete-protection";
    /** Attempts of a write that meets a conflict before the bind fails. */
    private static final int ATTEMPTS = 3;

    private final KubernetesClient client;

    DeviceClaimWriter(KubernetesClient client) {
        this.client = client;
    }

    /** Writes the allocation (if any) and the pod's reservation, as kube-scheduler's PreBind does. */
    void reserve(BindRequest request, BindRequest.DeviceClaimWrite write) {
        update(request, write.name(), write.allocation() != null ? Boolean.TRUE : null, status -> {
            if (write.allocation() != null) {
                if (status.get("allocation") != null) {
                    throw new IllegalStateException("ResourceClaim " + request.namespace() + "/" + write.name()
                            + " was allocated by someone else meanwhile");
                }
                status.put("allocation", DraObjects.allocationStatus(write.allocation()));
            }
            List<Object> reservedFor = new ArrayList<>(list(status.get("reservedFor")));
            if (reservedFor.stream().noneMatch(consumer -> request.uid().equals(map(consumer).get("uid")))) {
                reservedFor.add(Map.of("resource", "pods", "name", request.podName(), "uid", request.uid()));
            }
            status.put("reservedFor", reservedFor);
        });
        log.info("ResourceClaim {}/{} {}reserved for pod {} on {}", request.namespace(), write.name(),
                write.allocation() != null ? "allocated and " : "", request.podName(), request.nodeName());
    }

    /** Takes back what {@link #reserve} wrote to each claim; failures are logged, as the bind has failed anyway. */
    void unreserveAll(BindRequest request, List<BindRequest.DeviceClaimWrite> written) {
        for (BindRequest.DeviceClaimWrite write : written) {
            try {
                // The finalizer goes with an allocation the scheduler made and takes back, once no pod reserves it.
                Boolean finalizer = write.allocation() != null && reservedByOthers(request, write.name()) ? null
                        : write.allocation() != null ? Boolean.FALSE : null;
                update(request, write.name(), finalizer, status -> {
                    List<Object> reservedFor = new ArrayList<>(list(status.get("reservedFor")));
                    reservedFor.removeIf(consumer -> request.uid().equals(map(consumer).get("uid")));
                    status.put("reservedFor", reservedFor);
                    if (write.allocation() != null && reservedFor.isEmpty()) {
                        status.remove("allocation");
                    }
                });
            } catch (RuntimeException e) {
                log.warn("taking back ResourceClaim {}/{} of pod {} failed: {}", request.namespace(), write.name(),
                        request.podName(), e.getMessage());
            }
        }
    }

    private boolean reservedByOthers(BindRequest request, String name) {
        GenericKubernetesResource claim = client.genericKubernetesResources(CLAIMS)
                .inNamespace(request.namespace()).withName(name).get();
        return claim != null && list(map(claim.getAdditionalProperties().get("status")).get("reservedFor")).stream()
                .anyMatch(consumer -> !request.uid().equals(map(consumer).get("uid")));
    }

    /**
     * Reads the claim, puts ({@code TRUE}) or takes off ({@code FALSE}) the finalizer if asked and needed (an
     * update of the claim with its resourceVersion), then writes the changed status (likewise); on a
     * conflict, reads again.
     */
    private void update(BindRequest request, String name, Boolean finalizer,
                        java.util.function.Consumer<Map<String, Object>> change) {
        for (int attempt = 1; ; attempt++) {
            GenericKubernetesResource claim = client.genericKubernetesResources(CLAIMS)
                    .inNamespace(request.namespace()).withName(name).get();
            if (claim == null) {
                throw new IllegalStateException("ResourceClaim " + request.namespace() + "/" + name + " does not exist");
            }
            Map<String, Object> status = new LinkedHashMap<>(map(claim.getAdditionalProperties().get("status")));
            change.accept(status);
            try {
                claim = withFinalizer(request, claim, finalizer);
                claim.setAdditionalProperty("status", status);
                client.genericKubernetesResources(CLAIMS).inNamespace(request.namespace()).resource(claim).updateStatus();
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT || attempt == ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    /** The claim as stored once the finalizer is on ({@code TRUE}) or off ({@code FALSE}); as read for {@code null}. */
    private GenericKubernetesResource withFinalizer(BindRequest request, GenericKubernetesResource claim, Boolean on) {
        List<String> finalizers = new ArrayList<>(claim.getMetadata().getFinalizers() == null ? List.of()
                : claim.getMetadata().getFinalizers());
        if (on == null || on == finalizers.contains(FINALIZER)) {
            return claim;
        }
        if (on) {
            finalizers.add(FINALIZER);
        } else {
            finalizers.remove(FINALIZER);
        }
        claim.getMetadata().setFinalizers(finalizers);
        return client.genericKubernetesResources(CLAIMS).inNamespace(request.namespace()).resource(claim).update();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }

    private static List<Object> list(Object value) {
        return value instanceof List<?> list ? (List<Object>) list : List.of();
    }
}
