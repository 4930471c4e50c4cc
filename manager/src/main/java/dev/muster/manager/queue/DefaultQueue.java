package dev.muster.manager.queue;

import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.api.scheduling.v1alpha1.QueueDefaults;
import dev.muster.api.scheduling.v1alpha1.QueueSpec;
import dev.muster.support.controller.ApiErrors;
import dev.muster.support.controller.Controller;
import dev.muster.support.controller.ObjectKey;
import dev.muster.support.controller.ReconcileResult;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * The queue {@value Queue#DEFAULT}, which jobs naming no queue are in: created by the leading manager at start
 * when it is absent, with weight 1, no guarantee and no limit. An existing one is left as its owner set it.
 * The components start after one attempt; if it fails (the API server unreachable or refusing for a while),
 * it is tried again in the background through a {@link Controller}'s backoff, from {@link #FIRST_RETRY}
 * doubling to {@link #LONGEST_RETRY}, until the queue is there or the manager stops leading. Jobs naming no
 * queue are not held for its absence.
 */
public final class DefaultQueue {
    /** How long after a failed create the first retry comes. */
    public static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    /** The longest wait between two retries. */
    public static final Duration LONGEST_RETRY = Duration.ofSeconds(30);

    private static final Logger log = LoggerFactory.getLogger(DefaultQueue.class);
    private static final ObjectKey KEY = new ObjectKey(null, Queue.DEFAULT);

    private final KubernetesClient client;
    private final Controller retries;

    public DefaultQueue(KubernetesClient client) {
        this.client = client;
        this.retries = new Controller("default-queue", key -> {
            if (!create()) {
                throw new IllegalStateException("queue " + Queue.DEFAULT + " could not be created yet");
            }
            return ReconcileResult.done();
        }, 1, FIRST_RETRY, LONGEST_RETRY);
    }

    /** The queue as created: weight 1, nothing else set, so every other field takes its default. */
    public static Queue desired() {
        Queue queue = new Queue();
        queue.setMetadata(new ObjectMetaBuilder().withName(Queue.DEFAULT).build());
        QueueSpec spec = new QueueSpec();
        spec.setWeight(QueueDefaults.WEIGHT);
        queue.setSpec(spec);
        queue.setStatus(null);
        return queue;
    }

    /** Creates the queue unless it exists, now; if that fails, keeps trying in the background until {@link #stop}. */
    public void ensure() {
        if (!create()) {
            retries.start();
            retries.enqueueAfter(KEY, FIRST_RETRY);
        }
    }

    /** Stops trying. */
    public void stop() {
        retries.close();
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
