package dev.muster.local.store;

import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;

import java.util.List;
import java.util.Map;

/**
 * How server-side apply treats the lists of one kind: merged element by element under their keys, as a set of
 * scalars, or replaced whole (atomic). The path given is the field names from the object's root, list elements
 * left out ({@code spec, containers, env}).
 */
@FunctionalInterface
public interface ListTypes {

    /**
     * A list's semantics.
     *
     * @param keys the fields naming an element of a keyed list; empty otherwise
     */
    record ListType(Kind kind, List<String> keys) {
        static final ListType ATOMIC = new ListType(Kind.ATOMIC, List.of());
        static final ListType SET = new ListType(Kind.SET, List.of());
    }

    /** The three list types of {@code x-kubernetes-list-type}. */
    enum Kind { MAP, SET, ATOMIC }

    /**
     * Stands for the patch metadata of kube's built-in OpenAPI ({@code x-kubernetes-list-type},
     * {@code x-kubernetes-list-map-keys}), keyed by field name alone as {@link MergePatches} keys strategic merge:
     * the lists people write in manifests. A list not named here is atomic.
     */
    ListTypes BUILT_IN = fieldNames -> {
        String name = fieldNames.isEmpty() ? "" : fieldNames.get(fieldNames.size() - 1);
        return BuiltInLists.KEYED.getOrDefault(name, ListType.ATOMIC);
    };

    /** The list at a path of field names. */
    ListType at(List<String> fieldNames);

    /**
     * The list types a custom resource's {@code openAPIV3Schema} declares; a list without
     * {@code x-kubernetes-list-type}, or under a field the schema does not describe, is atomic, as in kube.
     */
    static ListTypes of(JSONSchemaProps schema) {
        return fieldNames -> {
            JSONSchemaProps node = schema;
            for (String name : fieldNames) {
                if (node == null) {
                    return ListType.ATOMIC;
                }
                if (node.getItems() != null && node.getItems().getSchema() != null) {
                    node = node.getItems().getSchema();
                }
                node = node.getProperties() == null ? null : node.getProperties().get(name);
            }
            if (node == null || node.getXKubernetesListType() == null) {
                return ListType.ATOMIC;
            }
            return switch (node.getXKubernetesListType()) {
                case "map" -> new ListType(Kind.MAP, node.getXKubernetesListMapKeys() == null ? List.of()
                        : List.copyOf(node.getXKubernetesListMapKeys()));
                case "set" -> ListType.SET;
                default -> ListType.ATOMIC;
            };
        };
    }

    /** The table behind {@link #BUILT_IN}. */
    final class BuiltInLists {
        private static final Map<String, ListType> KEYED = Map.ofEntries(
                keyed("containers", "name"),
                keyed("initContainers", "name"),
                keyed("ephemeralContainers", "name"),
                keyed("env", "name"),
                keyed("ports", "containerPort", "protocol"),
                keyed("volumeMounts", "mountPath"),
                keyed("volumeDevices", "devicePath"),
                keyed("volumes", "name"),
                keyed("imagePullSecrets", "name"),
                keyed("conditions", "type"),
                keyed("ownerReferences", "uid"),
                keyed("resourceClaims", "name"),
                Map.entry("finalizers", ListType.SET));

        private BuiltInLists() {
        }

        private static Map.Entry<String, ListType> keyed(String field, String... keys) {
            return Map.entry(field, new ListType(Kind.MAP, List.of(keys)));
        }
    }
}
