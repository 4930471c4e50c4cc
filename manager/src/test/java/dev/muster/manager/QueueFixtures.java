package dev.muster.manager;

import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.api.scheduling.v1alpha1.QueueCondition;
import dev.muster.api.scheduling.v1alpha1.QueueSpec;
import dev.muster.api.scheduling.v1alpha1.QueueStatus;
import dev.muster.api.scheduling.v1alpha1.QueueTreeValidator;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Queues for the tests of what shows them (the CLI, the dashboard): made through the client, since
 * {@code ./muster local}'s manifest loader does not apply Queues, and given a status as the scheduler writes it,
 * through the status subresource. The views show what is on the object, whoever wrote it.
 */
public final class QueueFixtures {
    private QueueFixtures() {
    }

    /** Creates the queue {@code name} with {@code spec}, a YAML flow mapping such as {@code {weight: 2}}. */
    public static void create(KubernetesClient client, String name, String spec) {
        client.resource(client.getKubernetesSerialization().unmarshal("apiVersion: " + Queue.API_VERSION + "\nkind: "
                + Queue.KIND + "\nmetadata: {name: " + name + "}\nspec: " + spec + "\n", Queue.class)).create();
    }

    /** A status of these amounts (resource to quantity, e.g. {@code nvidia.com/gpu -> 8}) and gang counts. */
    public static QueueStatus status(Map<String, String> allocated, Map<String, String> fairShare, Map<String, String> demand,
                                     int pending, int running) {
        QueueStatus status = new QueueStatus();
        status.setAllocated(quantities(allocated));
        status.setFairShare(quantities(fairShare));
        status.setDemand(quantities(demand));
        status.setPending(pending);
        status.setRunning(running);
        return status;
    }

    /**
     * Writes the queue's status on the version just read, with the {@code Valid} condition
     * {@link QueueTreeValidator} gives it among the cluster's queues, as the scheduler does.
     */
    public static void writeStatus(KubernetesClient client, String name, QueueStatus status) {
        List<Queue> queues = client.resources(Queue.class).list().getItems();
        Map<String, QueueSpec> specs = new TreeMap<>();
        queues.forEach(q -> specs.put(q.getMetadata().getName(), q.getSpec()));
        QueueCondition valid = QueueCondition.valid(QueueTreeValidator.validate(specs).get(name));
        valid.setLastTransitionTime(Instant.now().toString());
        status.setConditions(List.of(valid));
        Queue queue = queues.stream().filter(q -> name.equals(q.getMetadata().getName())).findFirst().orElseThrow();
        queue.setStatus(status);
        client.resource(queue).updateStatus();
    }

    private static Map<String, Quantity> quantities(Map<String, String> amounts) {
        Map<String, Quantity> quantities = new TreeMap<>();
        amounts.forEach((resource, amount) -> quantities.put(resource, new Quantity(amount)));
        return quantities;
    }
}
