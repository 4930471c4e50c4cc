package dev.muster.local;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;

import java.util.Collection;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The garbage collector's background propagation: once an object is gone, every object whose
 * {@code metadata.ownerReferences} names its uid is deleted, and so on down the ownership tree (Job → PodGroup,
 * pods, services); once a Namespace is gone, so is everything in it. The stock CRUD dispatcher leaves both
 * behind. Deletion goes through the dispatcher's own DELETE so that finalizers are honoured and watchers see
 * {@code DELETED} events.
 */
final class CascadingDeleter {
    private final Supplier<Collection<Map.Entry<AttributeSet, String>>> storedObjects;
    private final Consumer<String> deleteByPath;

    /**
     * @param storedObjects a snapshot of the store: the dispatcher's keys and JSON documents
     * @param deleteByPath  deletes the object at an API path
     */
    CascadingDeleter(Supplier<Collection<Map.Entry<AttributeSet, String>>> storedObjects, Consumer<String> deleteByPath) {
        this.storedObjects = storedObjects;
        this.deleteByPath = deleteByPath;
    }

    /** Deletes the dependents of an object that has just been removed from the store. */
    void deleteDependentsOf(String removedObjectJson) {
        JsonNode removed = Json.stored(removedObjectJson);
        String ownerUid = removed.path("metadata").path("uid").asText("");
        String namespace = "v1".equals(removed.path("apiVersion").asText()) && "Namespace".equals(removed.path("kind").asText())
                ? removed.path("metadata").path("name").asText() : null;
        for (Map.Entry<AttributeSet, String> object : storedObjects.get()) {
            boolean inNamespace = namespace != null && namespace.equals(value(object.getKey(), KubernetesAttributesExtractor.NAMESPACE));
            // uids are unique strings: the substring test skips parsing objects that cannot refer to this one.
            boolean owned = !ownerUid.isEmpty() && object.getValue().contains(ownerUid)
                    && isOwnedBy(Json.stored(object.getValue()), ownerUid);
            if (inNamespace || owned) {
                deleteByPath.accept(pathOf(object.getKey()));
            }
        }
    }

    private static boolean isOwnedBy(JsonNode object, String ownerUid) {
        for (JsonNode reference : object.path("metadata").path("ownerReferences")) {
            if (ownerUid.equals(reference.path("uid").asText())) {
                return true;
            }
        }
        return false;
    }

    /** The object's API path, rebuilt from the attributes the dispatcher keys it by. */
    private static String pathOf(AttributeSet key) {
        String group = value(key, KubernetesAttributesExtractor.API);
        String namespace = value(key, KubernetesAttributesExtractor.NAMESPACE);
        StringBuilder path = new StringBuilder(group == null ? "/api" : "/apis/" + group)
                .append('/').append(value(key, KubernetesAttributesExtractor.VERSION));
        if (namespace != null) {
            path.append("/namespaces/").append(namespace);
        }
        return path.append('/').append(value(key, KubernetesAttributesExtractor.PLURAL))
                .append('/').append(value(key, KubernetesAttributesExtractor.NAME)).toString();
    }

    private static String value(AttributeSet key, String name) {
        Attribute attribute = key.getAttribute(name);
        return attribute == null ? null : attribute.getValues().get(0).toString();
    }

}
