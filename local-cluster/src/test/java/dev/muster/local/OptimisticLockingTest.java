package dev.muster.local;

import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Tag("emulator")
class OptimisticLockingTest extends ApiOnlyClusterTests {
    @Test
    void updateWithStaleResourceVersionAnswersConflict() {
        Pod stale = client.pods().resource(Fixtures.pod("locked")).create();
        Pod fresh = Serialization.clone(stale);
        fresh.getMetadata().setLabels(Map.of("writer", "first"));
        client.resource(fresh).update();

        stale.getMetadata().setLabels(Map.of("writer", "second"));
        assertConflict(() -> client.resource(stale).update());
        assertThat(client.pods().withName("locked").get().getMetadata().getLabels()).containsEntry("writer", "first");
    }

    @Test
    void statusUpdateWithStaleResourceVersionAnswersConflict() {
        Pod stale = client.pods().resource(Fixtures.pod("locked-status")).create();
        Pod fresh = Serialization.clone(stale);
        fresh.setStatus(new PodStatusBuilder().withPhase("Running").build());
        client.resource(fresh).updateStatus();

        stale.setStatus(new PodStatusBuilder().withPhase("Failed").build());
        assertConflict(() -> client.resource(stale).updateStatus());
        assertThat(client.pods().withName("locked-status").get().getStatus().getPhase()).isEqualTo("Running");
    }

    @Test
    void customResourceStatusUpdateWithStaleResourceVersionAnswersConflict() {
        PodGroup group = new PodGroup();
        group.getMetadata().setName("locked-group");
        PodGroup stale = client.resource(group).create();
        PodGroup fresh = Serialization.clone(stale);
        fresh.setStatus(status(PodGroupPhase.Inqueue));
        client.resource(fresh).updateStatus();

        stale.setStatus(status(PodGroupPhase.Running));
        assertConflict(() -> client.resource(stale).updateStatus());
        assertThat(client.resources(PodGroup.class).withName("locked-group").get().getStatus().getPhase())
                .isEqualTo(PodGroupPhase.Inqueue);
    }

    @Test
    void mergePatchWithStaleResourceVersionAnswersConflict() {
        Pod created = client.pods().resource(Fixtures.pod("locked-patch")).create();
        client.pods().withName("locked-patch").edit(p -> {
            p.getMetadata().setLabels(Map.of("writer", "first"));
            return p;
        });

        RawApi.Response response = api.patch("/api/v1/namespaces/default/pods/locked-patch",
                "application/merge-patch+json", "{\"metadata\":{\"resourceVersion\":\""
                        + created.getMetadata().getResourceVersion() + "\",\"labels\":{\"writer\":\"second\"}}}");

        assertThat(response.code()).isEqualTo(409);
        assertThat(response.body().path("reason").asText()).isEqualTo("Conflict");
        assertThat(client.pods().withName("locked-patch").get().getMetadata().getLabels()).containsEntry("writer", "first");
    }

    @Test
    void createOfAnExistingObjectAnswersAlreadyExists() {
        client.pods().resource(Fixtures.pod("twice")).create();

        assertThatThrownBy(() -> client.pods().resource(Fixtures.pod("twice")).create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(409);
                    assertThat(e.getStatus().getReason()).isEqualTo("AlreadyExists");
                });
    }

    private static void assertConflict(Executable write) {
        assertThatThrownBy(write::execute).isInstanceOfSatisfying(KubernetesClientException.class, e -> {
            assertThat(e.getCode()).isEqualTo(409);
            assertThat(e.getStatus().getReason()).isEqualTo("Conflict");
        });
    }

    private static PodGroupStatus status(PodGroupPhase phase) {
        PodGroupStatus status = new PodGroupStatus();
        status.setPhase(phase);
        return status;
    }
}
