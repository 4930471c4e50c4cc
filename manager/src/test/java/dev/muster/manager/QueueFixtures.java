package dev.muster.manager;

import dev.muster.api.batch.v1alpha1.Job;
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

    /**
     * A Job in {@code default} of {@code queue}: a gang of four one-GPU pods that run for an hour, the unit the
     * reclaim tests share out (a node of 8 GPUs holds two).
     */
    public static Job fourGpuGang(KubernetesClient client, String name, String queue) {
        return client.getKubernetesSerialization().unmarshal("""
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: %s, namespace: default}
                spec:
                  queue: %s
                  minAvailable: 4
                  tasks:
                    - name: worker
                      replicas: 4
                      template:
                        metadata: {annotations: {local.muster.dev/run-seconds: "3600"}}
                        spec:
                          restartPolicy: Never
                          containers:
                            - name: trainer
                              image: busybox
                              resources: {requests: {nvidia.com/gpu: "1"}, limits: {nvidia.com/gpu: "1"}}
                """.formatted(name, queue), Job.class);
    }
}
