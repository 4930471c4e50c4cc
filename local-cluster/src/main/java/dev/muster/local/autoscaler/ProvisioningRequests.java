package dev.muster.local.autoscaler;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Cluster Autoscaler's ProvisioningRequest API on the plain maps of a generic resource: its classes, parameters
 * and annotations, reading its fields, and its status conditions as Cluster Autoscaler writes them
 * ({@code metav1.Condition}s keyed by type, with the reasons the simulated autoscaler gives), one condition set
 * the way {@code meta.SetStatusCondition} does (its transition time moves only when its status changes).
 */
final class ProvisioningRequests {
    static final String ACCEPTED = "Accepted";
    static final String PROVISIONED = "Provisioned";
    static final String FAILED = "Failed";
    static final String BOOKING_EXPIRED = "BookingExpired";

    static final String BEST_EFFORT_ATOMIC = "best-effort-atomic-scale-up.autoscaling.x-k8s.io";
    static final String CHECK_CAPACITY = "check-capacity.autoscaling.x-k8s.io";
    /** The parameter that turns "no capacity, try later" into {@code Failed}, as Cluster Autoscaler reads it. */
    static final String NO_RETRY_PARAMETER = "noRetry";
    /** The annotation on a pod that uses a request's booked capacity. */
    static final String CONSUME_ANNOTATION = "autoscaling.x-k8s.io/consume-provisioning-request";

    // The reasons are Cluster Autoscaler's, so that whatever reads them on a real cluster reads them here.
    static final String ACCEPTED_REASON = "Accepted";
    static final String CAPACITY_IS_FOUND = "CapacityIsFound";
    static final String CAPACITY_IS_NOT_FOUND = "CapacityIsNotFound";
    static final String CAPACITY_IS_PROVISIONED = "CapacityIsProvisioned";
    static final String FAILED_TO_CREATE_PODS = "FailedToCreatePods";
    static final String RESERVATION_TIME_EXCEEDED = "CapacityReservationTimeExceeded";

    private ProvisioningRequests() {
    }

    /** The request's {@code status.conditions} (never null). */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> conditions(GenericKubernetesResource request) {
        Map<String, Object> status = status(request);
        Object conditions = status == null ? null : status.get("conditions");
        return conditions instanceof List<?> list ? (List<Map<String, Object>>) list : List.of();
    }

    /** The condition of a type, if there is one. */
    static Optional<Map<String, Object>> find(List<Map<String, Object>> conditions, String type) {
        return conditions.stream().filter(c -> type.equals(c.get("type"))).findFirst();
    }

    /** Whether the condition of a type has status True. */
    static boolean isTrue(List<Map<String, Object>> conditions, String type) {
        return find(conditions, type).map(c -> "True".equals(c.get("status"))).orElse(false);
    }

    /**
     * The conditions with one set: added, or replaced keeping its transition time when its status is unchanged.
     */
    static List<Map<String, Object>> set(List<Map<String, Object>> conditions, String type, boolean status,
                                         String reason, String message, long generation, Instant now) {
        String value = status ? "True" : "False";
        List<Map<String, Object>> result = new ArrayList<>();
        boolean found = false;
        for (Map<String, Object> condition : conditions) {
            if (!type.equals(condition.get("type"))) {
                result.add(condition);
                continue;
            }
            found = true;
            Object since = value.equals(condition.get("status")) ? condition.get("lastTransitionTime") : timestamp(now);
            result.add(condition(type, value, reason, message, generation, since));
        }
        if (!found) {
            result.add(condition(type, value, reason, message, generation, timestamp(now)));
        }
        return result;
    }

    /** The instant the condition of a type last changed status, if it exists. */
    static Optional<Instant> since(List<Map<String, Object>> conditions, String type) {
        return find(conditions, type).map(c -> c.get("lastTransitionTime")).map(Object::toString).map(Instant::parse);
    }

    /** Whether two condition lists say the same, numbers compared by value whatever their JSON-read type. */
    static boolean same(List<Map<String, Object>> a, List<Map<String, Object>> b) {
        return Objects.equals(normalized(a), normalized(b));
    }

    private static List<Map<String, String>> normalized(List<Map<String, Object>> conditions) {
        return conditions.stream().map(c -> {
            Map<String, String> strings = new LinkedHashMap<>();
            c.forEach((k, v) -> strings.put(k, String.valueOf(v)));
            return strings;
        }).toList();
    }

    private static Map<String, Object> condition(String type, String status, String reason, String message,
                                                 long generation, Object since) {
        Map<String, Object> condition = new LinkedHashMap<>();
        condition.put("type", type);
        condition.put("status", status);
        condition.put("observedGeneration", generation);
        condition.put("lastTransitionTime", since);
        condition.put("reason", reason);
        condition.put("message", message);
        return condition;
    }

    private static String timestamp(Instant now) {
        return now.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** The request's status, or null. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> status(GenericKubernetesResource request) {
        return request.getAdditionalProperties().get("status") instanceof Map<?, ?> m ? (Map<String, Object>) m : null;
    }

    /** The request's spec, empty if it has none. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> spec(GenericKubernetesResource request) {
        return request.getAdditionalProperties().get("spec") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    /** A copy of the request with these conditions in its status, the rest of its status kept. */
    static GenericKubernetesResource withConditions(GenericKubernetesResource request,
                                                    List<Map<String, Object>> conditions) {
        GenericKubernetesResource copy = Serialization.clone(request);
        Map<String, Object> status = status(copy) == null ? new LinkedHashMap<>() : new LinkedHashMap<>(status(copy));
        status.put("conditions", conditions);
        copy.getAdditionalProperties().put("status", status);
        return copy;
    }

    /** The request's {@code spec.provisioningClassName}, {@code ""} if missing. */
    static String className(GenericKubernetesResource request) {
        return spec(request).get("provisioningClassName") instanceof String s ? s : "";
    }

    /** The request's {@code spec.parameters}, empty if none. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> parameters(GenericKubernetesResource request) {
        return spec(request).get("parameters") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    /** The request's {@code spec.podSets}. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> podSets(GenericKubernetesResource request) {
        return spec(request).get("podSets") instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
    }

    /** A podSet's {@code podTemplateRef.name}, {@code ""} if missing. */
    @SuppressWarnings("unchecked")
    static String templateName(Map<String, Object> podSet) {
        return podSet.get("podTemplateRef") instanceof Map<?, ?> ref && ((Map<String, Object>) ref).get("name") instanceof String n
                ? n : "";
    }

    /** The request's {@code metadata.generation}, 0 if unset. */
    static long generation(GenericKubernetesResource request) {
        return request.getMetadata().getGeneration() == null ? 0 : request.getMetadata().getGeneration();
    }

    /** {@code namespace/name}, for logs and messages. */
    static String key(GenericKubernetesResource request) {
        return request.getMetadata().getNamespace() + "/" + request.getMetadata().getName();
    }
}
