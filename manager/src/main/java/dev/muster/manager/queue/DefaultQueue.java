package dev.muster.manager.queue;

import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.api.scheduling.v1alpha1.QueueSpec;
import dev.muster.support.controller.ApiErrors;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The queue {@value Queue#DEFAULT}, which jobs naming no queue are in: created by the leading manager at start
 * when it is absent, with weight 1, no guarantee and no limit. An existing one is left as its owner set it.
 * A create that fails (the API server unreachable or refusing for a while) is tried again in the background,
 * with a backoff from {@link #FIRST_RETRY} doubling to {@link #LONGEST_RETRY}, until the queue is there or the
 * manager stops leading; the components start meanwhile, and jobs naming no queue are not held for its absence.
 */
public final class DefaultQueue {
    /** How long after a failed create the first retry comes. */
    public static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    /** The longest wait between two retries. */
    public static final Duration LONGEST_RETRY = Duration.ofSeconds(30);

    private static final Logger log = LoggerFactory.getLogger(DefaultQueue.class);

    private final KubernetesClient client;
    /** Runs the retries while the queue is not there; {@code null} when none is due. */
    private ScheduledExecutorService retries;

    public DefaultQueue(KubernetesClient client) {
        this.client = client;
    }

    /** The queue as created: weight 1, nothing else set, so every other field takes its default. */
    public static Queue desired() {
        Queue queue = new Queue();
        queue.setMetadata(new ObjectMetaBuilder().withName(Queue.DEFAULT).build());
        QueueSpec spec = new QueueSpec();
        spec.setWeight(1);
        queue.setSpec(spec);
        queue.setStatus(null);
        return queue;
    }

    /** Creates the queue unless it exists, now; if that fails, keeps trying in the background until {@link #stop}. */
    public synchronized void ensure() {
        stop();
        if (!create()) {
            retries = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "muster-default-queue");
                thread.setDaemon(true);
                return thread;
            });
            retryAfter(FIRST_RETRY);
        }
    }

    /** Stops trying. */
    public synchronized void stop() {
        if (retries != null) {
            retries.shutdownNow();
            retries = null;
        }
    }

    private synchronized void retryAfter(Duration delay) {
        if (retries == null) {
            return;
        }
        ScheduledExecutorService scheduled = retries;
        scheduled.schedule(() -> {
            if (create()) {
                synchronized (this) {
                    if (retries == scheduled) {
                        stop();
                    }
                }
            } else {
                Duration next = delay.multipliedBy(2);
                retryAfter(next.compareTo(LONGEST_RETRY) > 0 ? LONGEST_RETRY : next);
            }
        }, delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One create; whether the queue is there now. */
    private boolean create() {
        try {
            client.resource(desired()).create();
            log.info("queue {}: created (weight 1, no guarantee, no limit)", Queue.DEFAULT);
            return true;
        } catch (KubernetesClientException e) {
            if (ApiErrors.alreadyExists(e)) {
                log.info("queue {}: exists, left as it is", Queue.DEFAULT);
                return true;
            }
            log.warn("queue {}: could not be created ({}); trying again, and jobs naming no queue run meanwhile",
                    Queue.DEFAULT, e.getMessage());
            return false;
        }
    }
}
