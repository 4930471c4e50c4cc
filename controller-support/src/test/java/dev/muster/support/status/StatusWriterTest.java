package dev.muster.support.status;

import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Status writes against the local cluster over HTTP: only on a change, on the read's resourceVersion, the read object untouched. */
@Tag("emulator")
class StatusWriterTest {
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
    void writesAChangedStatusOnTheReadsVersionAndLeavesTheReadObjectAsItWas() {
        PodGroup read = create("written");
        String readVersion = read.getMetadata().getResourceVersion();
        StatusWriter writer = new StatusWriter(client);

        assertThat(writer.writeIfChanged(read, status(PodGroupPhase.Inqueue))).isTrue();

        PodGroup stored = client.resources(PodGroup.class).inNamespace("default").withName("written").get();
        assertThat(stored.getStatus().getPhase()).isEqualTo(PodGroupPhase.Inqueue);
        assertThat(stored.getSpec().getMinMember()).isEqualTo(3);
        assertThat(stored.getMetadata().getLabels()).containsEntry("team", "a");
        assertThat(read.getStatus()).isNull();
        assertThat(read.getMetadata().getResourceVersion()).isEqualTo(readVersion);
        assertThat(writer.writeIfChanged(stored, status(PodGroupPhase.Inqueue))).as("unchanged").isFalse();
        assertThat(writer.writes()).isEqualTo(1);
    }

    @Test
    void aWriteOnAStaleReadIsRefusedNotApplied() {
        PodGroup read = create("stale");
        StatusWriter writer = new StatusWriter(client);
        writer.writeIfChanged(read, status(PodGroupPhase.Inqueue));

        assertThatThrownBy(() -> writer.writeIfChanged(read, status(PodGroupPhase.Running)))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
        assertThat(client.resources(PodGroup.class).inNamespace("default").withName("stale").get().getStatus().getPhase())
                .isEqualTo(PodGroupPhase.Inqueue);
    }

    private static PodGroup create(String name) {
        PodGroup podGroup = new PodGroup();
        podGroup.getMetadata().setNamespace("default");
        podGroup.getMetadata().setName(name);
        podGroup.getMetadata().setLabels(Map.of("team", "a"));
        podGroup.getSpec().setMinMember(3);
        return client.resource(podGroup).create();
    }

    private static PodGroupStatus status(PodGroupPhase phase) {
        PodGroupStatus status = new PodGroupStatus();
        status.setPhase(phase);
        return status;
    }
}
