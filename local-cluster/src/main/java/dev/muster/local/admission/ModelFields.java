package dev.muster.local.admission;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fields of a built-in object's JSON that fabric8's model of its kind does not know (those it would put in a
 * model class's {@code additionalProperties}), found by walking the JSON along the model's Jackson properties,
 * and dropped: what kube-apiserver's strict decoder reports as unknown fields, at the same paths
 * ({@code spec.containers[0].resorces}). Maps (labels, annotations, nodeSelector, resource lists) and classes the
 * model reads with a deserializer of their own ({@code Quantity}, {@code IntOrString}) or declares no property
 * for ({@code FieldsV1}) are free-form. A field newer than the model (kubernetes-model 7.4, Kubernetes 1.34) counts
 * as unknown, except those in {@link #NEWER_THAN_MODEL}, which the emulator serves ahead of the model.
 */
public final class ModelFields {
    private static final ObjectMapper MAPPER = Serialization.jsonMapper();
    /** Per model class, its JSON properties and their types; an empty map for a free-form class. */
    private static final Map<Class<?>, Map<String, JavaType>> PROPERTIES = new ConcurrentHashMap<>();

    /**
     * Fields Kubernetes added after kubernetes-model 7.4 that the emulator serves, by the model class they belong
     * to: a pod's {@code spec.schedulingGroup} (1.36's alpha Workload API, gate GenericWorkload), which names the
     * PodGroup the scheduler gang-schedules the pod with. Each is walked as the class it maps to, so a misspelt
     * field inside it is still unknown.
     */
    private static final Map<Class<?>, Map<String, Class<?>>> NEWER_THAN_MODEL =
            Map.of(PodSpec.class, Map.of("schedulingGroup", PodSchedulingGroup.class));

    private ModelFields() {
    }

    /** A pod's {@code spec.schedulingGroup}, shaped as Kubernetes 1.36 has it, for the walk only. */
    private static final class PodSchedulingGroup {
        @JsonProperty
        private String podGroupName;
    }

    /**
     * Removes from {@code object} the fields {@code model} does not know, at any depth.
     *
     * @return the removed fields' paths, in document order
     */
    public static List<String> prune(ObjectNode object, Class<?> model) {
        List<String> unknown = new ArrayList<>();
        prune(object, MAPPER.constructType(model), "", unknown);
        return unknown;
    }

    private static void prune(ObjectNode object, JavaType type, String prefix, List<String> unknown) {
        Map<String, JavaType> properties = properties(type);
        if (properties.isEmpty()) {
            return;
        }
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        for (String name : names) {
            JavaType property = properties.get(name);
            if (property == null) {
                unknown.add(prefix + name);
                object.remove(name);
            } else {
                descend(object.get(name), property, prefix + name, unknown);
            }
        }
    }

    private static void descend(JsonNode node, JavaType type, String path, List<String> unknown) {
        if (type.isMapLikeType()) {
            if (node.isObject()) {
                node.fields().forEachRemaining(entry ->
                        descend(entry.getValue(), type.getContentType(), path + "." + entry.getKey(), unknown));
            }
        } else if (type.isCollectionLikeType() || type.isArrayType()) {
            for (int i = 0; i < node.size() && node.isArray(); i++) {
                descend(node.get(i), type.getContentType(), path + "[" + i + "]", unknown);
            }
        } else if (node instanceof ObjectNode object) {
            prune(object, type, path + ".", unknown);
        }
    }

    private static Map<String, JavaType> properties(JavaType type) {
        return PROPERTIES.computeIfAbsent(type.getRawClass(), raw -> {
            JsonDeserialize custom = raw.getAnnotation(JsonDeserialize.class);
            boolean model = raw.getName().startsWith("io.fabric8.kubernetes.api.model")
                    || raw.getEnclosingClass() == ModelFields.class;
            if (!model || custom != null && custom.using() != JsonDeserializer.None.class) {
                return Map.of();
            }
            BeanDescription description = MAPPER.getDeserializationConfig().introspect(type);
            Map<String, JavaType> properties = new HashMap<>();
            for (BeanPropertyDefinition property : description.findProperties()) {
                if (property.couldDeserialize()) {
                    properties.put(property.getName(), property.getPrimaryType());
                }
            }
            NEWER_THAN_MODEL.getOrDefault(raw, Map.of())
                    .forEach((name, newer) -> properties.put(name, MAPPER.constructType(newer)));
            return properties;
        });
    }
}
