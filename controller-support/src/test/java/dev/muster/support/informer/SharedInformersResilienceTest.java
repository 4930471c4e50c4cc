package dev.muster.support.informer;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.local.NetworkCut;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.muster.support.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Informers survive malformed objects and network cuts, and say so while they are not watching. */
@Tag("emulator")
class SharedInformersResilienceTest {
    private static GenericKubernetesResource rawJob(String name, Object replicas) {
        return new GenericKubernetesResourceBuilder().withApiVersion(Job.API_VERSION).withKind(Job.KIND)
                .withNewMetadata().withName(name).withNamespace("default").endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("tasks", List.of(Map.of("name", "worker",
                        "replicas", replicas, "template", Map.of("spec", Map.of("containers",
                                List.of(Map.of("name", "c", "image", "busybox"))))))))).build();
    }

    /** Past the emulator's admission, which refuses what the Java types cannot read, as a real API server would. */
    private static void createRaw(LocalCluster cluster, GenericKubernetesResource job) {
        cluster.createWithoutAdmissionForTests(job);
    }

    @Test
    void malformedJobsAreCachedWithTheirFailureReportedAndTheWatchGoesOn() {
        try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(0))) {
            KubernetesClient client = cluster.client();
            createRaw(cluster, rawJob("listed-bad", "three"));
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            try (SharedInformers informers = new SharedInformers(client, meters)) {
                SharedIndexInformer<Job> jobs = informers.informer(Job.class);
                informers.start();
                await().atMost(PATIENCE).until(informers::hasSynced);

                createRaw(cluster, rawJob("watched-bad", 3_000_000_000L));
                createRaw(cluster, rawJob("good", 2));

                await().atMost(PATIENCE).until(() -> jobs.getStore().getByKey("default/good") != null);
                assertThat(jobs.getStore().getByKey("default/good").getSpec().getTasks().get(0).getReplicas()).isEqualTo(2);
                assertThat(jobs.getStore().getByKey("default/listed-bad").readFailure())
                        .hasValueSatisfying(f -> assertThat(f.field()).isEqualTo("spec.tasks[0].replicas"));
                assertThat(jobs.getStore().getByKey("default/watched-bad").readFailure())
                        .hasValueSatisfying(f -> assertThat(f.reason()).contains("out of range"));
                assertThat(informers.notWatching()).isEmpty();
                await().atMost(PATIENCE).untilAsserted(() -> assertThat(meters.counter(UnreadableObjects.METRIC,
                        "kind", Job.KIND).count()).isEqualTo(2.0));
                await().atMost(PATIENCE).untilAsserted(() -> assertThat(client.v1().events().inNamespace("default")
                        .list().getItems()).filteredOn(e -> UnreadableObjects.REASON.equals(e.getReason()))
                        .extracting(e -> e.getInvolvedObject().getName())
                        .containsExactlyInAnyOrder("listed-bad", "watched-bad"));
            }
        }
    }

    @Test
    void aCutWatchShowsAsNotWatchingAndCatchesUpWithWhatChangedMeanwhile() {
        try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(0));
             NetworkCut network = new NetworkCut(cluster);
             KubernetesClient relayed = network.client();
             SharedInformers informers = new SharedInformers(relayed)) {
            KubernetesClient direct = cluster.client();
            SharedIndexInformer<ConfigMap> configMaps = informers.informer(ConfigMap.class);
            informers.start();
            await().atMost(PATIENCE).until(() -> informers.hasSynced() && informers.notWatching().isEmpty());

            network.cut();
            await().atMost(PATIENCE).until(informers::notWatching, List.of("ConfigMap")::equals);
            direct.configMaps().inNamespace("default").resource(new ConfigMapBuilder().withNewMetadata()
                    .withName("made-during-the-cut").withNamespace("default").endMetadata()
                    .addToData("k", "v").build()).create();

            network.restore();
            await().atMost(PATIENCE).until(() -> informers.notWatching().isEmpty());
            await().atMost(PATIENCE).until(() -> configMaps.getStore().getByKey("default/made-during-the-cut") != null);
            assertThat(configMaps.getStore().getByKey("default/made-during-the-cut").getData()).containsEntry("k", "v");
        }
    }
}
