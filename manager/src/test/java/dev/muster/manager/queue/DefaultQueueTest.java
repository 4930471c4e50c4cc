package dev.muster.manager.queue;

import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.local.NetworkCut;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;


import static dev.muster.manager.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The default queue is created even when the API server cannot be reached as the manager starts leading: the
 * failed create is tried again in the background until it succeeds.
 */
@Tag("emulator")
class DefaultQueueTest {

    @Test
    void aCreateThatFailsIsTriedAgainUntilTheQueueIsThere() {
        try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(1));
             NetworkCut network = new NetworkCut(cluster);
             // The client's own retries would outlast the cut; the point here is the queue's.
             KubernetesClient client = new KubernetesClientBuilder().withConfig(new ConfigBuilder(
                     cluster.client().getConfiguration()).withMasterUrl(network.url())
                     .withRequestRetryBackoffLimit(0).withConnectionTimeout(1_000).withRequestTimeout(1_000)
                     .build()).build()) {
            DefaultQueue defaultQueue = new DefaultQueue(client);
            network.cut();
            defaultQueue.ensure();
            assertThat(cluster.client().resources(Queue.class).withName(Queue.DEFAULT).get()).isNull();

            network.restore();
            await().atMost(PATIENCE).untilAsserted(() ->
                    assertThat(cluster.client().resources(Queue.class).withName(Queue.DEFAULT).get()).isNotNull());
            defaultQueue.stop();
        }
    }
}
