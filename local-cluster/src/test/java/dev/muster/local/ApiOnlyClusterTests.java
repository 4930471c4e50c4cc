package dev.muster.local;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Base of the test classes that exercise only the API emulator, on the cluster {@link ApiOnlyCluster} shares:
 * they reach it through {@link #client} and, for exact status codes and endpoints fabric8 has no DSL for,
 * {@link #api}. A subclass's own {@code @BeforeAll} methods run after these are set.
 */
@ExtendWith(ApiOnlyCluster.class)
public abstract class ApiOnlyClusterTests {
    protected static KubernetesClient client;
    protected static RawApi api;

    @BeforeAll
    protected static void connect(LocalCluster cluster) {
        client = cluster.client();
        api = new RawApi(cluster);
    }
}
