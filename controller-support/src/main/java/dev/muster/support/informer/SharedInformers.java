package dev.muster.support.informer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One informer per kind for the whole process, shared by the controllers and the scheduler so that
 * every kind is listed and watched once. fabric8's own factory creates a new informer on every call,
 * hence this get-or-create map.
 */
public final class SharedInformers implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SharedInformers.class);

    private final KubernetesClient client;
    private final Map<Class<?>, SharedIndexInformer<?>> informers = new LinkedHashMap<>();
    private boolean started;

    public SharedInformers(KubernetesClient client) {
        this.client = client;
    }

    /** The informer for a kind across all namespaces, created on first use; started with the others. */
    @SuppressWarnings("unchecked")
    public synchronized <T extends HasMetadata> SharedIndexInformer<T> informer(Class<T> type) {
        return (SharedIndexInformer<T>) informers.computeIfAbsent(type, t -> {
            SharedIndexInformer<T> informer = client.resources(type).inAnyNamespace().runnableInformer(0);
            if (started) {
                informer.start();
            }
            return informer;
        });
    }

    /** Starts every informer created so far, and any created later. */
    public synchronized void start() {
        started = true;
        informers.values().forEach(SharedIndexInformer::start);
        log.info("started informers for {}", informers.keySet().stream().map(Class::getSimpleName).toList());
    }

    /** Whether every informer has listed its kind at least once. */
    public synchronized boolean hasSynced() {
        return started && informers.values().stream().allMatch(SharedIndexInformer::hasSynced);
    }

    /** Kinds whose informer has not synced yet, for health reporting. */
    public synchronized List<String> unsynced() {
        return informers.entrySet().stream().filter(e -> !e.getValue().hasSynced())
                .map(e -> e.getKey().getSimpleName()).toList();
    }

    @Override
    public synchronized void close() {
        informers.values().forEach(SharedIndexInformer::close);
    }
}
