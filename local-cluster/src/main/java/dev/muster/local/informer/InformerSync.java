package dev.muster.local.informer;

import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Starts an informer of a simulated component and waits for its first list, as the component needs it to act. */
public final class InformerSync {
    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(30);

    private InformerSync() {
    }

    /** Starts the informer and waits until it has listed; {@code component} names who asks, for errors. */
    public static void await(SharedIndexInformer<?> informer, String component) {
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
