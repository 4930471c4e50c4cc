package dev.muster.local;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.api.PodPhase;
import dev.muster.local.dra.GpuApi;
import dev.muster.local.dra.SimulatedGpuDriver;
import dev.muster.local.node.SimulatedNodes;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Predicate;

import static org.awaitility.Awaitility.await;

/**
 * What the DRA simulation costs on the local cluster (a benchmark, run by hand: {@code main}): {@code pods} pods each
 * claiming one GPU through a template; how long until every claim is created and recorded in its pod, then, with
 * each claim allocated and reserved through its status and its pod bound, until every pod runs. Arguments: pods
 * (default 400), nodes (default 50, 8 GPUs each). From the repository root:
 *
 * <pre>
 * ./mvnw -q -pl local-cluster -am test-compile dependency:build-classpath \
 *   -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
 * java -Xmx2g -Dlogback.configurationFile=gang-scheduler/src/test/resources/logback-bench.xml \
 *   -cp "local-cluster/target/test-classes:local-cluster/target/classes:$(cat local-cluster/target/bench.classpath)" \
 *   dev.muster.local.DraSimulationBench 400 50
 * </pre>
 */
public final class DraSimulationBench {
    private static final int THREADS = 16;

    private DraSimulationBench() {
    }

    public static void main(String[] args) throws Exception {
        int pods = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        int nodes = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        LocalClusterConfig config = LocalClusterConfig.defaults().withNodes(nodes).withNodeGpus(8).withGpuApi(GpuApi.DRA)
                .withPodStartDelay(Duration.ofMillis(100));
        ExecutorService threads = Executors.newFixedThreadPool(THREADS);
        try (LocalCluster cluster = LocalCluster.start(config)) {
            KubernetesClient client = cluster.client();
            GenericKubernetesResource template = new GenericKubernetesResource();
            template.setApiVersion(SimulatedGpuDriver.API_VERSION);
            template.setKind("ResourceClaimTemplate");
            template.setMetadata(new ObjectMetaBuilder().withName("one-gpu").withNamespace("default").build());
            template.setAdditionalProperty("spec", Map.of("spec", Map.of("devices", Map.of("requests", List.of(Map.of(
                    "name", "gpu", "exactly", Map.of("deviceClassName", SimulatedGpuDriver.DEVICE_CLASS)))))));
            client.resource(template).create();

            long start = System.nanoTime();
            all(threads, pods, i -> client.resource(new PodBuilder(Fixtures.pod("p-" + i)).editSpec()
                    .withRestartPolicy("Always").addNewResourceClaim().withName("gpu")
                    .withResourceClaimTemplateName("one-gpu").endResourceClaim().endSpec().build()).create());
            double created = seconds(start);
            awaitPods(client, pods, pod -> !pod.getStatus().getResourceClaimStatuses().isEmpty());
            double claimed = seconds(start);
            System.out.printf("%d pods created in %.2f s; every claim created and recorded after %.2f s (%.0f claims/s)%n",
                    pods, created, claimed, pods / claimed);

            start = System.nanoTime();
            all(threads, pods, i -> {
                Pod pod = client.pods().withName("p-" + i).get();
                String claimName = pod.getStatus().getResourceClaimStatuses().stream()
                        .map(PodResourceClaimStatus::getResourceClaimName).findFirst().orElseThrow();
                String node = SimulatedNodes.poolNodeName(i % nodes);
                ObjectNode claim = Serialization.jsonMapper().valueToTree(
                        client.genericKubernetesResources(SimulatedGpuDriver.API_VERSION, "ResourceClaim").withName(claimName).get());
                ObjectNode status = claim.putObject("status");
                status.putObject("allocation").putObject("devices").putArray("results").addObject().put("request", "gpu")
                        .put("driver", SimulatedGpuDriver.DRIVER).put("pool", node).put("device", "gpu-" + (i / nodes) % 8);
                status.putArray("reservedFor").addObject().put("resource", "pods").put("name", pod.getMetadata().getName())
                        .put("uid", pod.getMetadata().getUid());
                client.genericKubernetesResources(SimulatedGpuDriver.API_VERSION, "ResourceClaim")
                        .resource(Serialization.jsonMapper().convertValue(claim, GenericKubernetesResource.class)).updateStatus();
                return client.bindings().inNamespace("default").resource(Fixtures.binding("p-" + i, node)).create();
            });
            double bound = seconds(start);
            awaitPods(client, pods, pod -> PodPhase.of(pod) == PodPhase.Running);
            double running = seconds(start);
            System.out.printf("claims allocated and pods bound in %.2f s; every pod Running after %.2f s (%.0f pods/s)%n",
                    bound, running, pods / running);
        } finally {
            threads.shutdownNow();
        }
    }

    private interface Step {
        Object run(int i) throws Exception;
    }

    private static void all(ExecutorService threads, int n, Step step) throws Exception {
        List<Future<Object>> futures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int index = i;
            futures.add(threads.submit(() -> step.run(index)));
        }
        for (Future<Object> future : futures) {
            future.get();
        }
    }

    /** Lists the pods until every one of them matches, every 50 ms. */
    private static void awaitPods(KubernetesClient client, int pods, Predicate<Pod> done) {
        await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(50)).until(() ->
                client.pods().inNamespace("default").list().getItems().stream().filter(done).count() == pods);
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
