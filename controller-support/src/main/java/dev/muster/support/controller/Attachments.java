package dev.muster.support.controller;

import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What a controller hooked into things it shares with others (informer handlers, listeners, informers of
 * its own), so that stopping it undoes exactly that, in reverse order. Thread-safe.
 */
public final class Attachments {
    private final Deque<Runnable> undo = new ArrayDeque<>();

    /**
     * Adds the indexes the informer does not have yet. Indexes are not removed on {@link #detachAll()}: the
     * informer is shared, another component (or this one started again) may use an index of the same name,
     * and an index only derives data from the cache.
     */
    public static <T> void index(SharedIndexInformer<T> informer, Map<String, Function<T, List<String>>> indexers) {
        // Two components starting at once must not both find an index missing: fabric8 refuses one added twice.
        synchronized (informer) {
            Map<String, ?> present = informer.getIndexer().getIndexers();
            indexers.forEach((name, index) -> {
                if (!present.containsKey(name)) {
                    informer.addIndexers(Map.of(name, index));
                }
            });
        }
    }

    /** Adds the handler to the informer, to be removed on {@link #detachAll()}. */
    public <T> void handler(SharedIndexInformer<T> informer, ResourceEventHandler<? super T> handler) {
        informer.addEventHandler(handler);
        onDetach(() -> informer.removeEventHandler(handler));
    }

    /** Runs {@code detach} on {@link #detachAll()}, e.g. to remove a listener or close an informer just made. */
    public synchronized void onDetach(Runnable detach) {
        undo.push(detach);
    }

    /** Undoes every attachment, the latest first, and forgets them. */
    public synchronized void detachAll() {
        while (!undo.isEmpty()) {
            undo.pop().run();
        }
    }
}
