package dev.muster.local.store;

import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The stored key of each object by its identity: API group, resource (plural), namespace and name. The
 * stock CRUD dispatcher finds an object by matching the request's attributes against every stored key,
 * and its attribute match is itself a linear search of the key's attributes, so every read or write of
 * one object cost time in proportion to the whole store; with a few thousand pods that was nine tenths
 * of the local cluster's CPU. This index answers the lookups that name one object in constant time.
 * fabric8 offers no hook for it, hence the hand-kept map. The keys are also kept by collection (one resource in
 * one namespace), for admission steps that read a namespace's objects on every pod creation.
 */
public final class ObjectIndex {
    private final Map<String, AttributeSet> keys = new ConcurrentHashMap<>();
    private final Map<String, Set<AttributeSet>> collections = new ConcurrentHashMap<>();

    /** Records the stored key of an object written to the store. */
    public void put(AttributeSet storedKey) {
        String identity = identity(storedKey);
        if (identity != null) {
            AttributeSet replaced = keys.put(identity, storedKey);
            if (replaced != null) {
                collectionOf(identity).remove(replaced);
            }
            collectionOf(identity).add(storedKey);
        }
    }

    /** Forgets the object stored under this key. */
    public void remove(AttributeSet storedKey) {
        String identity = identity(storedKey);
        if (identity != null && keys.remove(identity, storedKey)) {
            collectionOf(identity).remove(storedKey);
        }
    }

    /**
     * The stored keys of the objects of one resource in one namespace, without matching every stored key.
     *
     * @param group the API group; empty for the core group
     */
    public List<AttributeSet> keysIn(String group, String plural, String namespace) {
        Set<AttributeSet> collection = collections.get(group + "/" + plural + "/" + namespace + "/");
        return collection == null ? List.of() : List.copyOf(collection);
    }

    /**
     * The stored key of the object a request's attributes name, if the index knows it.
     *
     * @return null when the query does not name one object or no such object is indexed
     */
    public AttributeSet find(AttributeSet query) {
        String identity = identity(query);
        return identity == null ? null : keys.get(identity);
    }

    /** Whether a miss of {@link #find} proves the object absent: the query names one namespaced object. */
    public static boolean answersAlone(AttributeSet query) {
        return identity(query) != null && query.containsKey(KubernetesAttributesExtractor.NAMESPACE);
    }

    /** Forgets every key, as the store is emptied. */
    public void clear() {
        keys.clear();
        collections.clear();
    }

    /** The set of keys of the collection an object's identity belongs to. */
    private Set<AttributeSet> collectionOf(String identity) {
        return collections.computeIfAbsent(identity.substring(0, identity.lastIndexOf('/') + 1),
                collection -> ConcurrentHashMap.newKeySet());
    }

    /** API group, plural, namespace and name; null without a plural or a name. */
    private static String identity(AttributeSet attributes) {
        String plural = value(attributes, KubernetesAttributesExtractor.PLURAL);
        String name = value(attributes, KubernetesAttributesExtractor.NAME);
        if (plural == null || name == null) {
            return null;
        }
        String group = value(attributes, KubernetesAttributesExtractor.API);
        String namespace = value(attributes, KubernetesAttributesExtractor.NAMESPACE);
        return (group == null ? "" : group) + "/" + plural + "/" + (namespace == null ? "" : namespace) + "/" + name;
    }

    private static String value(AttributeSet attributes, String key) {
        Attribute attribute = attributes.getAttribute(key);
        if (attribute == null || attribute.getValues().size() != 1) {
            return null;
        }
        return attribute.getValues().get(0).toString();
    }
}
