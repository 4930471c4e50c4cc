package dev.muster.scheduler;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;

import java.util.HashSet;
import java.util.Set;

/**
 * Whether an informer's handler has been given every object the informer held once it had listed. An informer
 * reports synced as soon as its store is filled, while its handlers get the objects later, on another thread;
 * a scheduling cycle before then could place a gang it sees only half of.
 * <p>
 * The objects awaited are those in the store when it is first seen synced, less those the handler already
 * had; each is crossed off when the handler gets it, or when it leaves the store before. Counting objects
 * instead (given minus gone, against the store's size) is never sure to meet while objects keep coming and
 * going, which left a scheduler started on a busy cluster, after a restart or a leader change, never cycling.
 */
final class ListingDelivery {
    private final SharedIndexInformer<? extends HasMetadata> informer;
    private final Set<String> given = new HashSet<>();
    private Set<String> awaited;
    private volatile boolean caughtUp;

    ListingDelivery(SharedIndexInformer<? extends HasMetadata> informer) {
        this.informer = informer;
    }

    /** Notes that the handler was given the object (added, updated or deleted). */
    void given(HasMetadata object) {
        if (caughtUp) {
            return;
        }
        String key = Cache.metaNamespaceKeyFunc(object);
        synchronized (this) {
            if (awaited == null) {
                given.add(key);
            } else {
                awaited.remove(key);
            }
        }
    }

    /** Whether the informer has listed and its handler has been given everything the listing held. */
    boolean caughtUp() {
        if (caughtUp) {
            return true;
        }
        if (!informer.hasSynced()) {
            return false;
        }
        synchronized (this) {
            if (awaited == null) {
                awaited = new HashSet<>(informer.getStore().listKeys());
                awaited.removeAll(given);
                given.clear();
            }
            awaited.removeIf(key -> informer.getStore().getByKey(key) == null);
            caughtUp = awaited.isEmpty();
            return caughtUp;
        }
    }
}
