package dev.muster.scheduler;

import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.api.scheduling.v1alpha1.QueuePreemptionSpec;
import io.fabric8.kubernetes.client.KubernetesClient;

/** Queues for reclaim tests: reclaim is on by default, and no delay makes a test wait for it. */
final class ReclaimingQueues {
    private ReclaimingQueues() {
    }

    /** Creates a queue of weight 1 whose gangs may reclaim at once ({@code reclaimDelay: 0s}). */
    static void create(KubernetesClient client, String name) {
        Queue queue = new Queue();
        queue.getMetadata().setName(name);
        QueuePreemptionSpec preemption = new QueuePreemptionSpec();
        preemption.setReclaimDelay("0s");
        queue.getSpec().setPreemption(preemption);
        client.resources(Queue.class).resource(queue).create();
    }
}
