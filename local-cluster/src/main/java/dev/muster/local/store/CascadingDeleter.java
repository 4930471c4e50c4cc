package dev.muster.local.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.muster.local.protocol.Json;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The garbage collector's background propagation: once an object is gone, every object whose
 * {@code metadata.ownerReferences} names its uid is deleted, and so on down the ownership tree (Job → PodGroup,
 * pods, services); once a Namespace is gone, so is everything in it. The stock CRUD dispatcher leaves both
 * behind. Deletion goes through the dispatcher's own DELETE so that finalizers and pods' grace periods are
 * honoured and watchers see the events. Like the garbage collector, it acts after the write that removed the
 * owner: removals are queued by the thread that made them and deleted when it {@linkplain #drain drains} its
 * queue, outside the request locks that the deletions take themselves.
 */
public final class CascadingDeleter {
    private final Function<String, Collection<AttributeSet>> dependentsOf;
    private final Supplier<Collection<AttributeSet>> storedKeys;
    private final Consumer<String> deleteByPath;
    private final ThreadLocal<Deque<String>> removed = ThreadLocal.withInitial(ArrayDeque::new);

    /**
     * @param dependentsOf the keys of the stored objects whose owner references name a uid
     * @param storedKeys   a snapshot of the keys of every stored object, read only when a Namespace is gone
     * @param deleteByPath deletes the object at an API path
     */
    public CascadingDeleter(Function<String, Collection<AttributeSet>> dependentsOf, Supplier<Collection<AttributeSet>> storedKeys,
                     Consumer<String> deleteByPath) {
        this.dependentsOf = dependentsOf;
        this.storedKeys = storedKeys;
        this.deleteByPath = deleteByPath;
    }

    /** Queues an object that has just been removed from the store, for {@link #drain}. */
    public void removed(String removedObjectJson) {
        removed.get().add(removedObjectJson);
    }

    /**
     * Deletes the dependents of the objects this thread removed, and of the dependents it removes in turn. Call it
     * holding no request lock.
     */
    public void drain() {
        Deque<String> queue = removed.get();
        for (String next = queue.poll(); next != null; next = queue.poll()) {
            deleteDependentsOf(next);
        }
    }

    private void deleteDependentsOf(String removedObjectJson) {
        JsonNode removed = Json.stored(removedObjectJson);
        String ownerUid = removed.path("metadata").path("uid").asText("");
        Set<AttributeSet> doomed = new LinkedHashSet<>(ownerUid.isEmpty() ? List.of() : dependentsOf.apply(ownerUid));
        if ("v1".equals(removed.path("apiVersion").asText()) && "Namespace".equals(removed.path("kind").asText())) {
            String namespace = removed.path("metadata").path("name").asText();
            storedKeys.get().stream()
                    .filter(key -> namespace.equals(value(key, KubernetesAttributesExtractor.NAMESPACE)))
                    .forEach(doomed::add);
        }
        doomed.forEach(key -> deleteByPath.accept(pathOf(key)));
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
