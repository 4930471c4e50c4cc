package dev.muster.manager.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.local.NetworkCut;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.muster.manager.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Readiness tells the truth about every informer the manager depends on: when the manager's connection to the
 * API server is cut, readiness goes DOWN naming each kind it no longer watches, the shared informers' and the
 * ones the Job controller keeps for plugin objects alike; when the connection comes back, so does UP.
 */
@Tag("emulator")
class InformerHealthEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aCutConnectionTurnsReadinessDownNamingEveryInformerThatStoppedWatching() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(1));
             NetworkCut network = new NetworkCut(cluster)) {
            List<Integer> exits = new CopyOnWriteArrayList<>();
            // Without leader election: a leader cut off this long would give up its lease and exit, which is
            // LeaderElectionEndToEndTest's subject; here only what the informers report is.
            try (ConfigurableApplicationContext manager = ManagerOnLocalCluster.startManager(cluster, Map.of(
                    "muster.kubernetes.master-url", network.url(),
                    "muster.leader-election.enabled", false), exits::add)) {
                Actuator actuator = new Actuator(manager, (String) null);
                await().atMost(PATIENCE).untilAsserted(() -> assertThat(readiness(actuator).path("status").asText())
                        .isEqualTo("UP"));

                network.cut();
                await().atMost(PATIENCE).untilAsserted(() -> {
                    JsonNode readiness = readiness(actuator);
                    assertThat(readiness.path("status").asText()).isEqualTo("DOWN");
                    List<String> notWatching = new ArrayList<>();
                    readiness.path("components").path("informers").path("details").path("notWatching")
                            .forEach(kind -> notWatching.add(kind.asText()));
                    assertThat(notWatching).contains("Job", "Pod", "PodGroup", "Service", "ConfigMap", "NetworkPolicy");
                });

                network.restore();
                await().atMost(PATIENCE).untilAsserted(() -> assertThat(readiness(actuator).path("status").asText())
                        .isEqualTo("UP"));
                assertThat(exits).isEmpty();
            }
        }
    }

    /** The readiness group, which answers 503 while DOWN. */
    private static JsonNode readiness(Actuator actuator) throws Exception {
        HttpResponse<String> response = actuator.get("health/readiness");
        return JSON.readTree(response.body());
    }
}
