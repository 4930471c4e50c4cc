package dev.muster.support.informer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;

/**
 * An informer's store that drops each object's {@code metadata.managedFields} as it is stored, as client-go's
 * {@code TransformStripManagedFields} does: no part of Muster reads them, and on a cluster where several managers
 * write an object they can outweigh the rest of its metadata, for every pod, Job and PodGroup the process caches.
 * The object handed to the event handlers is the one stored, so they never see them either. A write made from a
 * cached object therefore sends no {@code managedFields}, which the API server reads as "keep them": only an
 * explicit empty list resets them.
 *
 * @param <T> the kind
 */
public final class WithoutManagedFields<T extends HasMetadata> extends BasicItemStore<T> {
    public WithoutManagedFields() {
        super(Cache::metaNamespaceKeyFunc);
    }

    @Override
    public T put(String key, T object) {
        if (object.getMetadata() != null) {
            object.getMetadata().setManagedFields(null);
        }
        return super.put(key, object);
    }
}
