package dev.muster.manager.e2e;

import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.manager.MusterApplication;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.springframework.context.ConfigurableApplicationContext;

import java.util.Map;

/** The whole manager, as a Spring context, running against a fresh local cluster over HTTP. */
final class ManagerOnLocalCluster implements AutoCloseable {
    final LocalCluster cluster;
    final ConfigurableApplicationContext manager;

    ManagerOnLocalCluster(LocalClusterConfig config) {
        cluster = LocalCluster.start(config);
        manager = MusterApplication.start(Map.of(
                "muster.kubernetes.master-url", cluster.url(),
                "server.port", 0,
                "spring.main.banner-mode", "off"));
    }

    KubernetesClient client() {
        return cluster.client();
    }

    @Override
    public void close() {
        manager.close();
        cluster.close();
    }
}
