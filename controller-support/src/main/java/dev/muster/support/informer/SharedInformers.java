package dev.muster.support.informer;

import dev.muster.api.read.LenientlyRead;
import dev.muster.support.event.EventRecorder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One informer per kind for the whole process, shared by the controllers and the scheduler so that
 * every kind is listed and watched once. fabric8's own factory creates a new informer on every call,
 * hence this get-or-create map. Their stores drop each object's managed fields ({@link WithoutManagedFields}).
 *
 * <p>No informer stops for good: every exception a list or watch raises is logged and retried (with
 * fabric8's backoff), and kinds read leniently ({@link LenientlyRead}) never raise one for a malformed
 * object; such objects are reported by {@link UnreadableObjects}. {@link #notWatching()} tells health
 * checks which informers are, at this moment, not receiving changes.
 */
public final class SharedInformers implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SharedInformers.class);

    private final KubernetesClient client;
    private final UnreadableObjects unreadable;
    private final Map<Class<?>, SharedIndexInformer<?>> informers = new LinkedHashMap<>();
    private boolean started;

    /** Informers whose unreadable-object counter goes to a registry of their own; for tests and tools. */
    public SharedInformers(KubernetesClient client) {
        this(client, new SimpleMeterRegistry());
    }

    /**
     * @param meters where {@link UnreadableObjects#METRIC} is counted
     */
    public SharedInformers(KubernetesClient client, MeterRegistry meters) {
        this.client = client;
        this.unreadable = new UnreadableObjects(new EventRecorder(client, "muster"), meters);
    }

    /** The informer for a kind across all namespaces, created on first use; started with the others. */
    @SuppressWarnings("unchecked")
    public synchronized <T extends HasMetadata> SharedIndexInformer<T> informer(Class<T> type) {
        return (SharedIndexInformer<T>) informers.computeIfAbsent(type, t -> {
            SharedIndexInformer<T> informer = client.resources(type).inAnyNamespace().runnableInformer(0)
                    .itemStore(new WithoutManagedFields<>());
            informer.exceptionHandler((wasStarted, failure) -> {
                log.warn("informer for {}: list or watch failed, retrying: {}", type.getSimpleName(), failure.toString());
                return true;
            });
            if (LenientlyRead.class.isAssignableFrom(type)) {
                informer.addEventHandler(unreadable);
            }
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

    /**
     * Kinds whose started informer is not running or not watching right now (its watch ended and is being
     * re-established, or it was stopped), for health reporting; empty before {@link #start()}.
     */
    public synchronized List<String> notWatching() {
        if (!started) {
            return List.of();
        }
        return informers.entrySet().stream().filter(e -> !e.getValue().isRunning() || !e.getValue().isWatching())
                .map(e -> e.getKey().getSimpleName()).toList();
    }

    @Override
    public synchronized void close() {
        informers.values().forEach(SharedIndexInformer::close);
    }
}
