package dev.muster.local;

import dev.muster.local.fault.FaultPlan;
import dev.muster.local.server.ApiEmulator;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.muster.local.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Watches keep the API server's resourceVersion contract (the "Efficient detection of changes" section of the
 * Kubernetes API concepts): a watch from version R gets every change after R, deletions included, in order; a
 * watch with no version starts with every object as ADDED; a version older than the server keeps gets a 410
 * Gone ERROR event; selectors are applied before and after each change.
 */
@Tag("emulator")
class WatchResumptionTest {
    /** Events a watch received, as "TYPE name" strings, and how it was closed. */
    private static final class Recorder implements Watcher<ConfigMap> {
        final List<String> events = new CopyOnWriteArrayList<>();
        final CompletableFuture<WatcherException> closed = new CompletableFuture<>();

        @Override
        public void eventReceived(Action action, ConfigMap configMap) {
            events.add(action + " " + configMap.getMetadata().getName());
        }

        @Override
        public void onClose(WatcherException cause) {
            closed.complete(cause);
        }
    }

    private static ConfigMap configMap(String name, Map<String, String> labels) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("default").withLabels(labels)
                .endMetadata().addToData("k", "v").build();
    }

    private static NonNamespaceOperation<ConfigMap, ConfigMapList, Resource<ConfigMap>> configMaps(KubernetesClient client) {
        return client.configMaps().inNamespace("default");
    }

    @Test
    void aWatchFromAResourceVersionGetsEveryLaterChangeInOrderDeletionsIncluded() {
        try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(0))) {
            KubernetesClient client = cluster.client();
            configMaps(client).resource(configMap("a", Map.of())).create();
            configMaps(client).resource(configMap("b", Map.of())).create();
            String listed = configMaps(client).list().getMetadata().getResourceVersion();
            configMaps(client).withName("a").edit(cm -> new ConfigMapBuilder(cm).addToData("k", "changed").build());
            configMaps(client).withName("b").delete();
            configMaps(client).resource(configMap("c", Map.of())).create();

            Recorder resumed = new Recorder();
            Recorder fresh = new Recorder();
            try (Watch ignored = configMaps(client).watch(new ListOptionsBuilder().withResourceVersion(listed).build(), resumed);
                 Watch alsoIgnored = configMaps(client).watch(new ListOptionsBuilder().build(), fresh)) {
                await().atMost(PATIENCE).untilAsserted(() -> {
                    assertThat(resumed.events).containsExactly("MODIFIED a", "DELETED b", "ADDED c");
                    assertThat(fresh.events).containsExactlyInAnyOrder("ADDED a", "ADDED c");
                });
                configMaps(client).withName("c").delete();
                await().atMost(PATIENCE).untilAsserted(() -> {
                    assertThat(resumed.events).containsExactly("MODIFIED a", "DELETED b", "ADDED c", "DELETED c");
                    assertThat(fresh.events).containsExactlyInAnyOrder("ADDED a", "ADDED c", "DELETED c");
                });
            }
        }
    }

    @Test
    void aDeletionHasAResourceVersionOfItsOwnSoAWatchResumedFromItDoesNotReplayIt() {
        try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(0))) {
            KubernetesClient client = cluster.client();
            String created = configMaps(client).resource(configMap("a", Map.of())).create().getMetadata().getResourceVersion();
            Recorder first = new Recorder();
            List<ConfigMap> deleted = new CopyOnWriteArrayList<>();
            try (Watch ignored = configMaps(client).watch(new ListOptionsBuilder().withResourceVersion(created).build(),
                    new Watcher<>() {
                        @Override
                        public void eventReceived(Action action, ConfigMap resource) {
                            first.eventReceived(action, resource);
                            deleted.add(resource);
                        }

                        @Override
                        public void onClose(WatcherException cause) {
                        }
                    })) {
                configMaps(client).withName("a").delete();
                await().atMost(PATIENCE).until(() -> deleted.size() == 1);
            }
            String deletedAt = deleted.get(0).getMetadata().getResourceVersion();
            assertThat(Long.parseLong(deletedAt)).isGreaterThan(Long.parseLong(created));

            Recorder resumed = new Recorder();
            try (Watch ignored = configMaps(client).watch(new ListOptionsBuilder().withResourceVersion(deletedAt).build(), resumed)) {
                configMaps(client).resource(configMap("b", Map.of())).create();
                await().atMost(PATIENCE).untilAsserted(() -> assertThat(resumed.events).containsExactly("ADDED b"));
            }
        }
    }

    @Test
    void aWatchFromAVersionOlderThanTheKeptChangesIsToldGone() {
        try (ApiEmulator emulator = ApiEmulator.start(FaultPlan.NONE, 3);
             KubernetesClient client = emulator.newClient(true)) {
            String first = configMaps(client).resource(configMap("cm-0", Map.of())).create().getMetadata().getResourceVersion();
            for (int i = 1; i < 6; i++) {
                configMaps(client).resource(configMap("cm-" + i, Map.of())).create();
            }

            Recorder tooOld = new Recorder();
            try (Watch ignored = configMaps(client).watch(new ListOptionsBuilder().withResourceVersion(first).build(), tooOld)) {
                WatcherException cause = tooOld.closed.orTimeout(PATIENCE.toSeconds(), java.util.concurrent.TimeUnit.SECONDS).join();
                assertThat(cause.isHttpGone()).isTrue();
                assertThat(cause.getMessage()).contains("too old resource version");
                assertThat(tooOld.events).isEmpty();
            }
        }
    }

    @Test
    void selectorsAreAppliedBeforeAndAfterEachChange() {
        try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(0))) {
            KubernetesClient client = cluster.client();
            configMaps(client).resource(configMap("a", Map.of("team", "ml"))).create();
            String listed = configMaps(client).list().getMetadata().getResourceVersion();
            configMaps(client).withName("a").edit(cm -> new ConfigMapBuilder(cm).editMetadata()
                    .addToLabels("team", "hpc").endMetadata().build());
            configMaps(client).withName("a").edit(cm -> new ConfigMapBuilder(cm).editMetadata()
                    .addToLabels("team", "ml").endMetadata().build());
            configMaps(client).resource(configMap("other", Map.of("team", "hpc"))).create();

            Recorder ml = new Recorder();
            try (Watch ignored = configMaps(client).withLabel("team", "ml")
                    .watch(new ListOptionsBuilder().withResourceVersion(listed).build(), ml)) {
                await().atMost(PATIENCE).untilAsserted(() -> assertThat(ml.events).containsExactly("DELETED a", "ADDED a"));
            }
        }
    }

    @Test
    void anInformerWhoseConnectionIsCutHearsOfWhatWasDeletedMeanwhile() {
        try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(0));
             NetworkCut network = new NetworkCut(cluster);
             KubernetesClient relayed = network.client()) {
            KubernetesClient direct = cluster.client();
            for (String name : List.of("kept", "deleted-during-the-cut", "changed-during-the-cut")) {
                configMaps(direct).resource(configMap(name, Map.of())).create();
            }
            SharedIndexInformer<ConfigMap> informer = configMaps(relayed).inform();
            try {
                await().atMost(PATIENCE).until(() -> informer.getStore().list().size() == 3);

                network.cut();
                await().atMost(PATIENCE).until(() -> !informer.isWatching());
                configMaps(direct).withName("deleted-during-the-cut").delete();
                configMaps(direct).withName("changed-during-the-cut")
                        .edit(cm -> new ConfigMapBuilder(cm).addToData("k", "changed").build());
                network.restore();

                await().atMost(PATIENCE).untilAsserted(() -> {
                    assertThat(informer.getStore().listKeys())
                            .containsExactlyInAnyOrder("default/kept", "default/changed-during-the-cut");
                    assertThat(informer.getStore().getByKey("default/changed-during-the-cut").getData())
                            .containsEntry("k", "changed");
                });
            } finally {
                informer.close();
            }
        }
    }

    @Test
    void anInformerTooFarBehindTheKeptChangesListsAgainAndCatchesUp() {
        try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(0), 5);
             NetworkCut network = new NetworkCut(cluster);
             KubernetesClient relayed = network.client()) {
            KubernetesClient direct = cluster.client();
            for (int i = 0; i < 4; i++) {
                configMaps(direct).resource(configMap("cm-" + i, Map.of())).create();
            }
            SharedIndexInformer<ConfigMap> informer = configMaps(relayed).inform();
            try {
                await().atMost(PATIENCE).until(() -> informer.getStore().list().size() == 4);

                network.cut();
                await().atMost(PATIENCE).until(() -> !informer.isWatching());
                // More changes than the emulator keeps: the informer's resumed watch is told 410 Gone.
                for (int i = 0; i < 3; i++) {
                    configMaps(direct).withName("cm-" + i).delete();
                }
                for (int i = 4; i < 10; i++) {
                    configMaps(direct).resource(configMap("cm-" + i, Map.of())).create();
                }
                network.restore();

                await().atMost(PATIENCE).untilAsserted(() -> assertThat(informer.getStore().listKeys())
                        .containsExactlyInAnyOrder("default/cm-3", "default/cm-4", "default/cm-5", "default/cm-6",
                                "default/cm-7", "default/cm-8", "default/cm-9"));
            } finally {
                informer.close();
            }
        }
    }
}
