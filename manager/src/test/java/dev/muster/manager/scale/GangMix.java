package dev.muster.manager.scale;

import dev.muster.api.batch.v1alpha1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Muster Jobs of a seeded mix of gang sizes (8, 16, ... 256, each as likely) that add up to a pod count, each pod
 * asking for 1 cpu, and the creation of them on 16 threads as {@code ./muster local} applies a file.
 */
final class GangMix {
    static final int[] SIZES = {8, 16, 32, 64, 128, 256};
    private static final int CREATORS = 16;

    private GangMix() {
    }

    /** Gang sizes adding up to {@code pods} (a multiple of 8), drawn from {@link #SIZES} with {@code seed}. */
    static List<Integer> sizes(int pods, long seed) {
        if (pods % 8 != 0) {
            throw new IllegalArgumentException("pods must be a multiple of 8, not " + pods);
        }
        Random random = new Random(seed);
        List<Integer> sizes = new ArrayList<>();
        for (int left = pods; left > 0; ) {
            int size = Math.min(SIZES[random.nextInt(SIZES.length)], left);
            sizes.add(size);
            left -= size;
        }
        return sizes;
    }

    /** A Job {@code name} of {@code size} pods of 1 cpu, all needed at once, each running {@code runSeconds}. */
    static Job job(KubernetesClient client, String name, int size, long runSeconds) {
        return client.getKubernetesSerialization().unmarshal("""
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: %s, namespace: default}
                spec:
                  minAvailable: %d
                  tasks:
                  - name: main
                    replicas: %d
                    template:
                      metadata: {annotations: {local.muster.dev/run-seconds: "%d"}}
                      spec: {restartPolicy: Never, containers: [{name: main, image: busybox, resources: {requests: {cpu: "1", memory: 64Mi}}}]}
                """.formatted(name, size, size, runSeconds), Job.class);
    }

    /** Creates the Jobs on {@value #CREATORS} threads and returns once all are created. */
    static void create(KubernetesClient client, List<Job> jobs) throws Exception {
        ExecutorService creators = Executors.newFixedThreadPool(CREATORS);
        try {
            List<Future<?>> created = new ArrayList<>();
            for (Job job : jobs) {
                created.add(creators.submit(() -> client.resource(job).create()));
            }
            for (Future<?> f : created) {
                f.get();
            }
        } finally {
            creators.shutdownNow();
        }
    }
}
