package dev.muster.job;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * Runs one API call per item in parallel, in batches of 1, 2, 4, 8, ... items, and stops after the first
 * batch in which a call failed, as kube-controller-manager's ReplicaSet and Job controllers do. A job of a
 * thousand pods is created in about ten round trips instead of a thousand, and when creation is refused
 * (a quota, an admission webhook) the API server sees a handful of failing calls, not a thousand.
 */
final class SlowStartBatch {
    private SlowStartBatch() {
    }

    /**
     * Applies {@code call} to every item, batch after batch, on {@code executor}.
     *
     * @throws Failure for the first item whose call failed in the first batch with a failure; the calls of
     *                 that batch all ran, later batches did not start
     */
    static <T> void run(List<T> items, Executor executor, Consumer<T> call) {
        int next = 0;
        for (int size = 1; next < items.size(); size *= 2) {
            int end = Math.min(items.size(), next + size);
            List<CompletableFuture<Void>> batch = new ArrayList<>(end - next);
            for (T item : items.subList(next, end)) {
                batch.add(CompletableFuture.runAsync(() -> {
                    try {
                        call.accept(item);
                    } catch (RuntimeException e) {
                        throw new Failure(item, e);
                    }
                }, executor));
            }
            Failure first = null;
            for (CompletableFuture<Void> running : batch) {
                try {
                    running.join();
                } catch (CompletionException e) {
                    if (first == null) {
                        first = e.getCause() instanceof Failure failure ? failure : new Failure(null, e);
                    }
                }
            }
            if (first != null) {
                throw first;
            }
            next = end;
        }
    }

    /** The call for {@link #item()} failed with {@link #getCause()}. */
    static final class Failure extends RuntimeException {
        private final transient Object item;

        Failure(Object item, RuntimeException cause) {
            super(cause.getMessage(), cause);
            this.item = item;
        }

        Object item() {
            return item;
        }

        @Override
        public synchronized RuntimeException getCause() {
            return (RuntimeException) super.getCause();
        }
    }
}
