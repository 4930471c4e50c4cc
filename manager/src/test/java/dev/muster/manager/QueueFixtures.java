package dev.muster.manager;

import dev.muster.api.scheduling.v1alpha1.Queue;
import io.fabric8.kubernetes.client.KubernetesClient;

/** Queues for the tests of the manager, the CLI and the dashboard, made through the client; their status is the scheduler's. */
public final class QueueFixtures {
    private QueueFixtures() {
    }

    /** Creates the queue {@code name} with {@code spec}, a YAML flow mapping such as {@code {weight: 2}}. */
    public static void create(KubernetesClient client, String name, String spec) {
        client.resource(client.getKubernetesSerialization().unmarshal("apiVersion: " + Queue.API_VERSION + "\nkind: "
                + Queue.KIND + "\nmetadata: {name: " + name + "}\nspec: " + spec + "\n", Queue.class)).create();
    }
}
