package dev.muster.support.controller;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Guarded deletes over HTTP against the local cluster, and the URL path they are sent to. */
@Tag("emulator")
class GuardedDeleteTest {
    private static LocalCluster cluster;
    private static KubernetesClient client;

    @BeforeAll
    static void start() {
        cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(0));
        client = cluster.client();
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void pathsFollowTheApiServersLayout() {
        Pod pod = new PodBuilder().withNewMetadata().withNamespace("team-a").withName("train-0").endMetadata().build();
        Job job = new Job();
        job.getMetadata().setNamespace("team-a");
        job.getMetadata().setName("train");
        Namespace namespace = new NamespaceBuilder().withNewMetadata().withName("team-a").endMetadata().build();

        assertThat(GuardedDelete.path(pod)).isEqualTo("/api/v1/namespaces/team-a/pods/train-0");
        assertThat(GuardedDelete.path(job)).isEqualTo("/apis/batch.muster.dev/v1alpha1/namespaces/team-a/jobs/train");
        assertThat(GuardedDelete.path(namespace)).isEqualTo("/api/v1/namespaces/team-a");
    }

    @Test
    void anObjectChangedSinceItWasReadIsNotDeletedOnItsVersion() {
        ConfigMap read = client.resource(configMap("changed")).create();
        client.configMaps().inNamespace("default").withName("changed")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"data\":{\"k\":\"changed\"}}");

        assertThatThrownBy(() -> GuardedDelete.ofVersion(client, read))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
        assertThat(client.configMaps().inNamespace("default").withName("changed").get()).isNotNull();
        assertThat(GuardedDelete.ofUid(client, read)).isTrue();
        assertThat(client.configMaps().inNamespace("default").withName("changed").get()).isNull();
    }

    @Test
    void anotherObjectUnderTheSameNameIsNotDeletedAndAMissingOneIsNoError() {
        ConfigMap first = client.resource(configMap("reused")).create();
        assertThat(GuardedDelete.ofVersion(client, first)).isTrue();
        ConfigMap second = client.resource(configMap("reused")).create();

        assertThatThrownBy(() -> GuardedDelete.ofUid(client, first))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
        assertThat(client.configMaps().inNamespace("default").withName("reused").get().getMetadata().getUid())
                .isEqualTo(second.getMetadata().getUid());
        client.resource(second).delete();
        assertThat(GuardedDelete.ofUid(client, second)).isFalse();
    }

    private static ConfigMap configMap(String name) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
                .addToData("k", "v").build();
    }
}
