package dev.muster.local;

import dev.muster.api.PodPhase;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Tests of pod lifecycles on a cluster of their own with two nodes and the fast kubelet of {@link Fixtures#FAST};
 * the cluster lives as long as the test class.
 */
public abstract class KubeletClusterTests {
    protected static LocalCluster cluster;
    protected static KubernetesClient client;

    @BeforeAll
    protected static void startCluster() {
        cluster = LocalCluster.start(Fixtures.FAST);
        client = cluster.client();
    }

    @AfterAll
    protected static void stopCluster() {
        cluster.close();
    }

    protected static void bind(String pod, String node) {
        client.bindings().inNamespace("default").resource(Fixtures.binding(pod, node)).create();
    }

    /** The pod's phase; {@code Gone} once it is removed. */
    protected static String phase(String pod) {
        Pod current = client.pods().withName(pod).get();
        return current == null ? "Gone" : PodPhase.of(current).name();
    }
}
