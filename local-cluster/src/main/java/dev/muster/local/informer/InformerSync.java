package dev.muster.local.informer;

import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Starts the informers of a simulated component (kubelet, controllers, autoscaler) and waits for their first lists,
 * as the component needs them to act: the one home of that start-up, so that every component fails alike when the
 * API emulator cannot be listed.
 */
public final class InformerSync {
    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(30);

    private InformerSync() {
    }

    /**
     * Starts the informers one after the other, each once the one before has listed. If one cannot list,
     * {@code closeComponent} runs (closing the component's informers, threads and client) and the error is rethrown.
     *
     * @param component       names the component, for errors
     * @param closeComponent  closes the whole component
     * @param informers       the informers the component needs listed before it acts, in start order
     */
    public static void awaitAll(String component, Runnable closeComponent, SharedIndexInformer<?>... informers) {
        try {
            for (SharedIndexInformer<?> informer : informers) {
                await(informer, component);
            }
        } catch (RuntimeException e) {
            closeComponent.run();
            throw e;
        }
    }

    private static void await(SharedIndexInformer<?> informer, String component) {
        try {
            informer.start().toCompletableFuture().get(SYNC_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the " + component, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(component + " could not list from the API emulator", e);
        }
    }
}
