package dev.muster.scheduler;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * Binds pods through the {@code pods/{name}/binding} subresource, as kube-scheduler does, on the API
 * executor so that the cycle thread never waits for the API server. fabric8 has no DSL for this
 * subresource, hence the raw POST. A pod's unbound {@code WaitForFirstConsumer} claims are first
 * annotated with its node; unlike kube-scheduler, the pod is then bound without waiting for them to be
 * provisioned, and its kubelet waits for the volumes. A pod's ResourceClaims get, as in kube-scheduler's
 * DynamicResources PreBind, the allocation the cycle made and the pod in {@code reservedFor}, written to
 * each claim's status with its resourceVersion (a claim changed meanwhile fails the bind rather than be
 * overwritten); if a write or the binding fails, what was written is taken back, so nothing stays
 * reserved for a pod that is not bound.
 */
final class BindingClient {
    private static final Logger log = LoggerFactory.getLogger(BindingClient.class);
    /** The annotation kube-scheduler writes on a delayed-binding claim: the node its pod was placed on. */
    static final String SELECTED_NODE = "volume.kubernetes.io/selected-node";

    private final KubernetesClient client;
    private final DeviceClaimWriter deviceClaims;
    private final Executor executor;
    private final Consumer<BindRequest> onSuccess;
    private final Consumer<BindRequest> onFailure;

    /**
     * @param executor  runs the API calls; its size bounds the bindings in flight
     * @param onSuccess called, on the executor, for each pod bound
     * @param onFailure called, on the executor, for each pod whose binding failed
     */
    BindingClient(KubernetesClient client, Executor executor, Consumer<BindRequest> onSuccess,
              Consumer<BindRequest> onFailure) {
        this.client = client;
        this.deviceClaims = new DeviceClaimWriter(client);
        this.executor = executor;
        this.onSuccess = onSuccess;
        this.onFailure = onFailure;
    }

    /** Starts binding each pod; returns at once. */
    void bindAll(List<BindRequest> requests) {
        for (BindRequest request : requests) {
            executor.execute(() -> bind(request));
        }
    }

    private void bind(BindRequest request) {
        try {
            for (String claim : request.claimsToProvision()) {
                selectNode(request, claim);
            }
        } catch (RuntimeException e) {
            log.warn("telling claim(s) {} of pod {} their node {} failed: {}", request.claimsToProvision(),
                    request.podKey(), request.nodeName(), e.getMessage());
            onFailure.accept(request);
            return;
        }
        List<BindRequest.DeviceClaimWrite> reserved = new ArrayList<>();
        try {
            for (BindRequest.DeviceClaimWrite write : request.deviceClaims()) {
                deviceClaims.reserve(request, write);
                reserved.add(write);
            }
        } catch (RuntimeException e) {
            log.warn("reserving ResourceClaim(s) of pod {} on {} failed: {}", request.podKey(), request.nodeName(),
                    e.getMessage());
            deviceClaims.unreserveAll(request, reserved);
            onFailure.accept(request);
            return;
        }
        Binding binding = new BindingBuilder()
                .withNewMetadata().withNamespace(request.namespace()).withName(request.podName())
                .withUid(request.uid()).endMetadata()
                .withNewTarget().withApiVersion("v1").withKind("Node").withName(request.nodeName()).endTarget()
                .build();
        String path = "/api/v1/namespaces/" + request.namespace() + "/pods/" + request.podName() + "/binding";
        try {
            client.raw(path, "POST", binding);
            log.debug("bound pod {} to {}", request.podKey(), request.nodeName());
            onSuccess.accept(request);
        } catch (RuntimeException e) {
            // Whatever the cause (409 bound by someone else, 404 deleted, the API server unreachable), the
            // pod's room is given back: the informer shows a pod bound elsewhere or gone, and a pod still
            // pending is retried with its gang by the next cycle.
            log.warn("binding pod {} to {} failed: {}", request.podKey(), request.nodeName(), e.getMessage());
            deviceClaims.unreserveAll(request, reserved);
            onFailure.accept(request);
        }
    }

    /**
     * Tells a {@code WaitForFirstConsumer} claim the node its pod goes to, as kube-scheduler's VolumeBinding
     * PreBind does, so that its provisioner creates the volume there; a merge patch of the one annotation,
     * which leaves every other field to its writers.
     */
    private void selectNode(BindRequest request, String claim) {
        client.persistentVolumeClaims().inNamespace(request.namespace()).withName(claim)
                .patch(PatchContext.of(PatchType.JSON_MERGE), client.getKubernetesSerialization().asJson(Map.of("metadata",
                        Map.of("annotations", Map.of(SELECTED_NODE, request.nodeName())))));
        log.info("claim {}/{} of pod {} is to be provisioned for node {}", request.namespace(), claim,
                request.podKey(), request.nodeName());
    }
}
