package dev.muster.scheduler.bench;

import dev.muster.api.MusterLabels;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupFixtures;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.scheduler.GangScheduler;
import dev.muster.scheduler.GangSchedulerConfig;
import dev.muster.gang.GangVerdictBoard;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * End to end on the in-JVM local cluster, over HTTP: pods and PodGroups are created through the API,
 * the scheduler (own informers) binds them through the Binding API, and the clock stops when a separate
 * watch has seen every pod bound. The local cluster's client has fabric8's concurrent-request limits
 * lifted; creation runs on 16 threads. Simulated pods never start during the run, so the kubelet's
 * status writes do not compete.
 */
public final class LocalClusterBench {
    private static final int NODES = 100;
    private static final int GANGS = 125;
    private static final int GANG_SIZE = 16;

    private LocalClusterBench() {
    }

    public static void main(String[] args) throws InterruptedException {
        System.out.printf("Local cluster end to end: %d nodes of 32 cpu, 256Gi, 110 pods; gangs of %d pods of 1 cpu, "
                + "1Gi, minMember %d; client concurrency limits lifted, 16 creating threads%n%n", NODES, GANG_SIZE,
                GANG_SIZE);
        System.out.println("| scenario | pods | pods created in (s) | all bound after (s) | pods/s |");
        System.out.println("|---|---:|---:|---:|---:|");
        run("backlog: pods exist, then the scheduler starts", 125, false);
        run("stream: scheduler running while pods are created", 125, true);
        emulatorCeiling(1_000);
    }

    /**
     * The API emulator's own pace with no scheduler: one client creating pods one after another, then
     * binding each through the Binding API. The end-to-end rows above cannot beat these rates.
     */
    private static void emulatorCeiling(int pods) {
        try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(NODES)
                .withNodeCpu("32").withNodeMemory("256Gi").withNodePods(110)
                .withPodStartDelay(Duration.ofHours(1)).withDefaultRunTime(Duration.ofHours(1)))) {
            KubernetesClient client = cluster.client();
            long start = System.nanoTime();
            for (int i = 0; i < pods; i++) {
                client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("p-" + i)
                        .endMetadata().withNewSpec().withSchedulerName("none").addNewContainer().withName("main")
                        .withImage("busybox").endContainer().endSpec().build()).create();
            }
            long created = System.nanoTime();
            for (int i = 0; i < pods; i++) {
                client.raw("/api/v1/namespaces/default/pods/p-" + i + "/binding", "POST", new BindingBuilder()
                        .withNewMetadata().withName("p-" + i).withNamespace("default").endMetadata()
                        .withNewTarget().withApiVersion("v1").withKind("Node").withName("node-" + i % NODES).endTarget()
                        .build());
            }
            double bindSeconds = (System.nanoTime() - created) / 1e9;
            System.out.printf("| emulator alone: sequential creates, then sequential binds (no scheduler) | %,d "
                    + "| %.2f | %.2f | %,.0f |%n", pods, (created - start) / 1e9, bindSeconds, pods / bindSeconds);
        }
    }

    /**
     * Creates the gangs and waits until a watch has seen every pod bound. The clock starts when the
     * scheduler starts (backlog) or with the first create (stream).
     */
    private static void run(String scenario, int gangs, boolean schedulerFirst) throws InterruptedException {
        int pods = gangs * GANG_SIZE;
        try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(NODES)
                .withNodeCpu("32").withNodeMemory("256Gi").withNodePods(110)
                .withPodStartDelay(Duration.ofHours(1)).withDefaultRunTime(Duration.ofHours(1)));
             GangScheduler scheduler = new GangScheduler(cluster.client(), new GangVerdictBoard(),
                     GangSchedulerConfig.defaults().withBindConcurrency(32))) {
            KubernetesClient client = cluster.client();
            BoundPods bound = new BoundPods(pods);
            SharedIndexInformer<Pod> watch = client.pods().inNamespace("default").inform(bound);
            try {
                long start = System.nanoTime();
                if (schedulerFirst) {
                    startAndSync(scheduler);
                    start = System.nanoTime();
                }
                double creation = createGangs(client, gangs);
                if (!schedulerFirst) {
                    start = System.nanoTime();
                    scheduler.start();
                }
                if (!bound.all.await(10, TimeUnit.MINUTES)) {
                    throw new IllegalStateException("only " + bound.names.size() + " of " + pods + " pods bound");
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                System.out.printf("| %s | %,d | %.2f | %.2f | %,.0f |%n", scenario, pods, creation, seconds,
                        pods / seconds);
            } finally {
                watch.close();
            }
        }
    }

    private static void startAndSync(GangScheduler scheduler) {
        scheduler.start();
        while (!scheduler.isSynced()) {
            Thread.onSpinWait();
        }
    }

    /** Creates the PodGroups and pods on 16 threads; returns the seconds it took. */
    private static double createGangs(KubernetesClient client, int gangs) throws InterruptedException {
        long start = System.nanoTime();
        ExecutorService creators = Executors.newFixedThreadPool(16);
        for (int g = 0; g < gangs; g++) {
            String group = "gang-" + g;
            createPodGroup(client, group);
            for (int p = 0; p < GANG_SIZE; p++) {
                Pod pod = pod(group + "-" + p, group);
                creators.execute(() -> client.pods().inNamespace("default").resource(pod).create());
            }
        }
        creators.shutdown();
        if (!creators.awaitTermination(10, TimeUnit.MINUTES)) {
            throw new IllegalStateException("pod creation did not finish");
        }
        return (System.nanoTime() - start) / 1e9;
    }

    /** Counts pods seen bound; opens the latch when all are. */
    private static final class BoundPods implements ResourceEventHandler<Pod> {
        private final int expected;
        private final Set<String> names = ConcurrentHashMap.newKeySet();
        private final CountDownLatch all = new CountDownLatch(1);

        BoundPods(int expected) {
            this.expected = expected;
        }

        @Override
        public void onAdd(Pod pod) {
            onUpdate(null, pod);
        }

        @Override
        public void onUpdate(Pod before, Pod pod) {
            if (pod.getSpec().getNodeName() != null && names.add(pod.getMetadata().getName())
                    && names.size() == expected) {
                all.countDown();
            }
        }

        @Override
        public void onDelete(Pod pod, boolean finalStateUnknown) {
        }
    }

    private static void createPodGroup(KubernetesClient client, String name) {
        client.resources(PodGroup.class).inNamespace("default").resource(PodGroupFixtures.podGroup("default", name, GANG_SIZE))
                .create();
    }

    private static Pod pod(String name, String group) {
        return new PodBuilder()
                .withNewMetadata().withName(name).withNamespace("default")
                .addToLabels(MusterLabels.POD_GROUP, group).addToLabels(MusterLabels.TASK_NAME, "worker").endMetadata()
                .withNewSpec().withSchedulerName(MusterLabels.SCHEDULER_NAME)
                .addNewContainer().withName("main").withImage("busybox")
                .withNewResources().addToRequests("cpu", new Quantity("1")).addToRequests("memory", new Quantity("1Gi"))
                .endResources().endContainer().endSpec().build();
    }
}
