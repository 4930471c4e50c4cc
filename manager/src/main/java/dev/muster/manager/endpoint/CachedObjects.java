package dev.muster.manager.endpoint;

import dev.muster.manager.security.NamespaceScope;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.Store;
import org.jspecify.annotations.Nullable;

import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * One kind's objects in an informer cache, read as summaries: what the {@code jobs} and {@code podgroups}
 * endpoints share.
 *
 * @param <T> the kind
 * @param <S> its summary
 */
final class CachedObjects<T extends HasMetadata, S> {
    private final Store<T> store;
    private final Function<T, S> summary;

    CachedObjects(Store<T> store, Function<T, S> summary) {
        this.store = store;
        this.summary = summary;
    }

    /**
     * The summaries of the objects in {@code namespace} (all when null) that {@code scope} may see, by namespace
     * and name.
     */
    List<S> list(@Nullable String namespace, NamespaceScope scope) {
        return store.list().stream()
                .filter(object -> namespace == null || namespace.equals(object.getMetadata().getNamespace()))
                .filter(object -> scope.allows(object.getMetadata().getNamespace()))
                .sorted(Comparator.comparing((T object) -> object.getMetadata().getNamespace())
                        .thenComparing(object -> object.getMetadata().getName()))
                .map(summary)
                .toList();
    }

    /** The summary of one object, or null when the cache does not hold it or {@code scope} may not see it. */
    @Nullable S get(String namespace, String name, NamespaceScope scope) {
        if (!scope.allows(namespace)) {
            return null;
        }
        T object = store.getByKey(namespace + "/" + name);
        return object == null ? null : summary.apply(object);
    }
}
