package dev.muster.manager.queue;

import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.api.scheduling.v1alpha1.QueueSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import dev.muster.support.controller.ApiErrors;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;


/**
 * The queue {@value Queue#DEFAULT}, which jobs naming no queue are in: created by the leading manager at start
 * when it is absent, with weight 1, no guarantee and no limit. An existing one is left as its owner set it.
 */
public final class DefaultQueue {
    private static final Logger log = LoggerFactory.getLogger(DefaultQueue.class);

    private DefaultQueue() {
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

    /**
     * Creates the queue unless it exists. A failure is logged, not thrown: the components start all the same,
     * and jobs naming no queue are not held for the queue's absence.
     */
    public static void ensure(KubernetesClient client) {
        try {
            client.resource(desired()).create();
            log.info("queue {}: created (weight 1, no guarantee, no limit)", Queue.DEFAULT);
        } catch (KubernetesClientException e) {
            if (ApiErrors.alreadyExists(e)) {
                log.info("queue {}: exists, left as it is", Queue.DEFAULT);
                return;
            }
            log.warn("queue {}: could not be created ({}); jobs naming no queue run without it", Queue.DEFAULT,
                    e.getMessage());
        }
    }
}
