package dev.muster.local.dra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.api.PodPhase;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * What kube-controller-manager's resourceclaim controller and the kubelet decide about a pod's DRA claims, as pure
 * functions of the pod and claims (claims as the JSON the API serves, since fabric8 has no {@code resource.k8s.io/v1}
 * model): which claim each entry of {@code spec.resourceClaims} names, the claim created for an entry with a
 * template, which reservations of a claim still hold, and whether a pod's claims let it run.
 */
public final class PodResourceClaims {
    /** The annotation of a generated claim naming the pod's entry it was made for. */
    static final String POD_CLAIM_NAME_ANNOTATION = "resource.kubernetes.io/pod-claim-name";
    /** The finalizer the scheduler puts on a claim it allocates; the controller takes it off once deallocated. */
    static final String DELETE_PROTECTION_FINALIZER = "resource.kubernetes.io/delete-protection";
    /** The most consumers {@code status.reservedFor} may list, as in the API's validation. */
    static final int MAX_RESERVED_FOR = 256;
    /** kube-controller-manager leaves room for a hyphen and five random characters in a 63-character name. */
    private static final int MAX_GENERATE_NAME_BASE = 57;

    /**
     * How a pod's entry resolves: {@code claimName} is the claim it uses, null when none is needed (a template entry
     * whose status names no claim) or, with {@code created} false, when the claim is yet to be created from
     * {@code templateName}.
     */
    public record Entry(String podClaimName, String claimName, String templateName, boolean created) {
        /** Whether the entry still waits for its claim to be created from its template. */
        boolean awaitsCreation() {
            return !created;
        }

        /** Whether the claim is one made for this pod from a template, which must then be owned by the pod. */
        boolean generated() {
            return templateName != null;
        }
    }

    private PodResourceClaims() {
    }

    /** The pod's entries in {@code spec.resourceClaims}, resolved through {@code status.resourceClaimStatuses}. */
    public static List<Entry> entries(Pod pod) {
        List<PodResourceClaim> claims = pod.getSpec() == null ? null : pod.getSpec().getResourceClaims();
        if (claims == null || claims.isEmpty()) {
            return List.of();
        }
        Map<String, PodResourceClaimStatus> statuses = new LinkedHashMap<>();
        if (pod.getStatus() != null && pod.getStatus().getResourceClaimStatuses() != null) {
            pod.getStatus().getResourceClaimStatuses().forEach(s -> statuses.put(s.getName(), s));
        }
        List<Entry> entries = new ArrayList<>();
        for (PodResourceClaim claim : claims) {
            if (claim.getResourceClaimName() != null) {
                entries.add(new Entry(claim.getName(), claim.getResourceClaimName(), null, true));
            } else if (claim.getResourceClaimTemplateName() != null) {
                PodResourceClaimStatus status = statuses.get(claim.getName());
                entries.add(new Entry(claim.getName(), status == null ? null : status.getResourceClaimName(),
                        claim.getResourceClaimTemplateName(), status != null));
            }
        }
        return entries;
    }

    /**
     * The claim kube-controller-manager creates for the pod's entry {@code podClaimName} from {@code template}: the
     * template's spec, labels and annotations, the annotation {@value #POD_CLAIM_NAME_ANNOTATION}, the pod as its
     * controlling owner (so that it goes with the pod) and a generated name based on {@code <pod>-<entry>-}.
     */
    static ObjectNode generatedClaim(Pod pod, String podClaimName, JsonNode template) {
        ObjectNode claim = JsonNodeFactory.instance.objectNode();
        claim.put("apiVersion", SimulatedGpuDriver.API_VERSION).put("kind", "ResourceClaim");
        ObjectNode metadata = claim.putObject("metadata");
        metadata.put("generateName", generateName(pod.getMetadata().getName(), podClaimName));
        metadata.put("namespace", pod.getMetadata().getNamespace());
        JsonNode templateMetadata = template.path("spec").path("metadata");
        if (templateMetadata.path("labels").isObject()) {
            metadata.set("labels", templateMetadata.get("labels").deepCopy());
        }
        ObjectNode annotations = templateMetadata.path("annotations").isObject()
                ? templateMetadata.get("annotations").deepCopy() : JsonNodeFactory.instance.objectNode();
        annotations.put(POD_CLAIM_NAME_ANNOTATION, podClaimName);
        metadata.set("annotations", annotations);
        ArrayNode owners = metadata.putArray("ownerReferences");
        owners.addObject().put("apiVersion", "v1").put("kind", "Pod").put("name", pod.getMetadata().getName())
                .put("uid", pod.getMetadata().getUid()).put("controller", true).put("blockOwnerDeletion", true);
        claim.set("spec", template.path("spec").path("spec").deepCopy());
        return claim;
    }

    /**
     * {@code <pod>-<entry>-}, both parts cut in proportion to their length when it is longer than 57 characters, so
     * that a long pod name does not crowd out the entry's, as kube-controller-manager does.
     */
    static String generateName(String podName, String podClaimName) {
        String base = podName + "-" + podClaimName + "-";
        if (base.length() <= MAX_GENERATE_NAME_BASE) {
            return base;
        }
        int length = base.length();
        return podName.substring(0, podName.length() * MAX_GENERATE_NAME_BASE / length) + "-"
                + podClaimName.substring(0, podClaimName.length() * MAX_GENERATE_NAME_BASE / length);
    }

    /** The claim among {@code claims} that was generated for the pod's entry, if any: owned by it and annotated so. */
    static Optional<JsonNode> generatedFor(Pod pod, String podClaimName, List<JsonNode> claims) {
        return claims.stream()
                .filter(claim -> pod.getMetadata().getUid().equals(ownerPodUid(claim)))
                .filter(claim -> podClaimName.equals(claim.path("metadata").path("annotations")
                        .path(POD_CLAIM_NAME_ANNOTATION).asText(null)))
                .findFirst();
    }

    /** The uid of the pod that controls the claim, or null when no pod does. */
    static String ownerPodUid(JsonNode claim) {
        for (JsonNode owner : claim.path("metadata").path("ownerReferences")) {
            if (owner.path("controller").asBoolean() && "v1".equals(owner.path("apiVersion").asText())
                    && "Pod".equals(owner.path("kind").asText())) {
                return owner.path("uid").asText();
            }
        }
        return null;
    }

    /** The name of the pod that controls the claim, or null when no pod does. */
    static String ownerPodName(JsonNode claim) {
        for (JsonNode owner : claim.path("metadata").path("ownerReferences")) {
            if (owner.path("controller").asBoolean() && "v1".equals(owner.path("apiVersion").asText())
                    && "Pod".equals(owner.path("kind").asText())) {
                return owner.path("name").asText();
            }
        }
        return null;
    }

    /** Whether the claim has an allocation. */
    static boolean allocated(JsonNode claim) {
        return claim.path("status").path("allocation").isObject();
    }

    /** Whether {@code status.reservedFor} names the pod (by uid). */
    static boolean reservedFor(JsonNode claim, Pod pod) {
        for (JsonNode consumer : claim.path("status").path("reservedFor")) {
            if (isPodReference(consumer) && pod.getMetadata().getUid().equals(consumer.path("uid").asText())) {
                return true;
            }
        }
        return false;
    }

    /**
     * The entries of {@code status.reservedFor} that still hold: a pod's holds while the pod of that name exists with
     * that uid and is not done ({@code podNamed} gives the pod of a name in the claim's namespace, or empty when
     * there is none); other consumers are kept, as nothing here knows them.
     */
    static List<JsonNode> reservationsKept(JsonNode claim, Function<String, Optional<Pod>> podNamed) {
        List<JsonNode> kept = new ArrayList<>();
        for (JsonNode consumer : claim.path("status").path("reservedFor")) {
            if (!isPodReference(consumer)) {
                kept.add(consumer);
                continue;
            }
            Optional<Pod> pod = podNamed.apply(consumer.path("name").asText());
            if (pod.isPresent() && pod.get().getMetadata().getUid().equals(consumer.path("uid").asText())
                    && !isDone(pod.get())) {
                kept.add(consumer);
            }
        }
        return kept;
    }

    /**
     * Whether none of the pod's containers runs or ever will: it has finished, or it is being deleted before any
     * node took it.
     */
    static boolean isDone(Pod pod) {
        PodPhase phase = PodPhase.of(pod);
        boolean unbound = pod.getSpec().getNodeName() == null || pod.getSpec().getNodeName().isEmpty();
        return phase == PodPhase.Succeeded || phase == PodPhase.Failed
                || pod.getMetadata().getDeletionTimestamp() != null && unbound;
    }

    /**
     * Why the kubelet cannot prepare the pod's claims yet, or empty when every claim it names is allocated and
     * reserved for it. {@code claimNamed} gives the claim of a name in the pod's namespace.
     */
    public static Optional<String> notPrepared(Pod pod, Function<String, Optional<JsonNode>> claimNamed) {
        for (Entry entry : entries(pod)) {
            if (entry.awaitsCreation()) {
                return Optional.of("claim " + entry.podClaimName() + " is not created yet from template "
                        + entry.templateName());
            }
            if (entry.claimName() == null) {
                continue;
            }
            Optional<JsonNode> claim = claimNamed.apply(entry.claimName());
            if (claim.isEmpty()) {
                return Optional.of("ResourceClaim " + entry.claimName() + " not found");
            }
            if (entry.generated() && !pod.getMetadata().getUid().equals(ownerPodUid(claim.get()))) {
                return Optional.of("ResourceClaim " + entry.claimName() + " was not created for the pod");
            }
            if (!allocated(claim.get())) {
                return Optional.of("ResourceClaim " + entry.claimName() + " is not allocated");
            }
            if (!reservedFor(claim.get(), pod)) {
                return Optional.of("ResourceClaim " + entry.claimName() + " is not reserved for the pod");
            }
        }
        return Optional.empty();
    }

    private static boolean isPodReference(JsonNode consumer) {
        return consumer.path("apiGroup").asText("").isEmpty() && "pods".equals(consumer.path("resource").asText());
    }
}
