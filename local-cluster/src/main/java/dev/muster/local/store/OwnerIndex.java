package dev.muster.local.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.muster.local.protocol.Json;
import io.fabric8.mockwebserver.crud.AttributeSet;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The stored keys of the objects that name each uid in their {@code metadata.ownerReferences}, so that the
 * dependents of a deleted object are found without reading every stored object. Kept in step with the store
 * by the API server's dispatcher, like {@link ObjectIndex}.
 */
public final class OwnerIndex {
    private final Map<String, Set<AttributeSet>> dependentsByOwner = new ConcurrentHashMap<>();
    private final Map<AttributeSet, List<String>> ownersByKey = new ConcurrentHashMap<>();

    /** Records the owners named by an object written to the store under {@code storedKey}. */
    public void put(AttributeSet storedKey, String json) {
        // Most writes name no owner; the substring test spares parsing them.
        if (!json.contains("\"ownerReferences\"")) {
            return;
        }
        List<String> owners = new ArrayList<>();
        for (JsonNode reference : Json.stored(json).path("metadata").path("ownerReferences")) {
            String uid = reference.path("uid").asText("");
            if (!uid.isEmpty()) {
                owners.add(uid);
            }
        }
        if (owners.isEmpty()) {
            return;
        }
        ownersByKey.put(storedKey, owners);
        owners.forEach(uid -> dependentsByOwner.computeIfAbsent(uid, key -> ConcurrentHashMap.newKeySet()).add(storedKey));
    }

    /** Forgets the owners of the object stored under this key. */
    public void remove(AttributeSet storedKey) {
        List<String> owners = ownersByKey.remove(storedKey);
        if (owners == null) {
            return;
        }
        owners.forEach(uid -> dependentsByOwner.computeIfPresent(uid, (key, dependents) -> {
            dependents.remove(storedKey);
            return dependents.isEmpty() ? null : dependents;
        }));
    }

    /** The stored keys of the objects that name {@code ownerUid} as an owner; a copy, safe to delete through. */
    public List<AttributeSet> dependentsOf(String ownerUid) {
        Set<AttributeSet> dependents = dependentsByOwner.get(ownerUid);
        return dependents == null ? List.of() : List.copyOf(dependents);
    }

    /** Forgets every key, as the store is emptied. */
    public void clear() {
        dependentsByOwner.clear();
        ownersByKey.clear();
    }
}
