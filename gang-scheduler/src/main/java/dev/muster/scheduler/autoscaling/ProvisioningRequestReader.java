package dev.muster.scheduler.autoscaling;

import dev.muster.api.MusterLabels;
import dev.muster.scheduler.core.model.GroupKey;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads a ProvisioningRequest Muster made into plain data. */
final class ProvisioningRequestReader {
    private ProvisioningRequestReader() {
    }

    /** The request as the decisions see it; empty if it is not one of Muster's (no gang or attempt label). */
    static Optional<ObservedRequest> read(GenericKubernetesResource request) {
        Map<String, String> labels = request.getMetadata().getLabels();
        if (labels == null || labels.get(MusterLabels.POD_GROUP) == null
                || labels.get(ProvisioningRequestApi.ATTEMPT_LABEL) == null) {
            return Optional.empty();
        }
        int attempt;
        try {
            attempt = Integer.parseInt(labels.get(ProvisioningRequestApi.ATTEMPT_LABEL));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        if (attempt < 1) {
            return Optional.empty();
        }
        RequestState.Reading reading = RequestState.read(conditions(request));
        return Optional.of(new ObservedRequest(
                GroupKey.podGroup(request.getMetadata().getNamespace(), labels.get(MusterLabels.POD_GROUP)),
                request.getMetadata().getName(), request.getMetadata().getResourceVersion(), attempt, reading.state(),
                reading.message(), reading.since(), provisioningClass(request), podTemplates(request)));
    }

    private static String provisioningClass(GenericKubernetesResource request) {
        return request.getAdditionalProperties().get("spec") instanceof Map<?, ?> spec
                && spec.get("provisioningClassName") instanceof String name ? name : null;
    }

    private static List<String> podTemplates(GenericKubernetesResource request) {
        List<String> names = new ArrayList<>();
        if (request.getAdditionalProperties().get("spec") instanceof Map<?, ?> spec
                && spec.get("podSets") instanceof List<?> podSets) {
            for (Object podSet : podSets) {
                if (podSet instanceof Map<?, ?> set && set.get("podTemplateRef") instanceof Map<?, ?> ref
                        && ref.get("name") instanceof String name) {
                    names.add(name);
                }
            }
        }
        return names;
    }

    /** The conditions of the request's status; malformed entries are skipped, as the autoscaler wrote them. */
    static List<RequestState.Condition> conditions(GenericKubernetesResource request) {
        List<RequestState.Condition> conditions = new ArrayList<>();
        if (!(request.getAdditionalProperties().get("status") instanceof Map<?, ?> status)
                || !(status.get("conditions") instanceof List<?> list)) {
            return conditions;
        }
        for (Object item : list) {
            if (item instanceof Map<?, ?> condition && condition.get("type") instanceof String type) {
                conditions.add(new RequestState.Condition(type, text(condition.get("status")),
                        text(condition.get("reason")), text(condition.get("message")),
                        time(condition.get("lastTransitionTime"))));
            }
        }
        return conditions;
    }

    private static String text(Object value) {
        return value instanceof String string ? string : null;
    }

    private static Instant time(Object value) {
        if (!(value instanceof String string)) {
            return null;
        }
        try {
            return Instant.parse(string);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
