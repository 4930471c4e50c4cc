package dev.muster.scheduler;

import dev.muster.api.MusterLabels;
import dev.muster.local.LocalCluster;
import dev.muster.support.gang.GangVerdict;
import dev.muster.support.gang.GangVerdictBoard;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterEach;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

import static org.awaitility.Awaitility.await;

/**
 * What the scheduler's scenario tests share: a local cluster the test starts, a scheduler started after
 * the scenario's objects exist (so its first cycle sees them all), the verdict board, and lookups.
 */
abstract class SchedulerScenario {
    static final String NS = "default";
    static final Duration PATIENCE = Duration.ofSeconds(15);
    /** Several cycles at the scenarios' period: long enough for a wrong binding to show. */
    static final Duration STAYS = Duration.ofMillis(800);

    LocalCluster cluster;
    KubernetesClient client;
    final GangVerdictBoard board = new GangVerdictBoard();
    GangScheduler scheduler;

    void startScheduler(UnaryOperator<GangSchedulerConfig> configure) {
        scheduler = new GangScheduler(client, board,
                configure.apply(GangSchedulerConfig.defaults().withCyclePeriod(Duration.ofMillis(200))));
        scheduler.start();
        await().atMost(PATIENCE).until(scheduler::isSynced);
    }

    @AfterEach
    void stopSchedulerAndCluster() {
        if (scheduler != null) {
            scheduler.stop();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    Optional<GangVerdict> verdict(String podGroup) {
        return board.latest(NS, podGroup);
    }

    List<Pod> bound(String podGroup) {
        return client.pods().inNamespace(NS).withLabel(MusterLabels.POD_GROUP, podGroup).list().getItems().stream()
                .filter(pod -> pod.getSpec().getNodeName() != null).toList();
    }
}
