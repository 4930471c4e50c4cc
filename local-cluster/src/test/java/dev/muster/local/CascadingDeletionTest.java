package dev.muster.local;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static dev.muster.local.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

@Tag("emulator")
class CascadingDeletionTest extends ApiOnlyClusterTests {
    @Test
    void deletingAJobDeletesItsPodGroupPodsAndTheirDependents() {
        Job job = client.resource(Fixtures.job("train")).create();
        PodGroup group = new PodGroup();
        group.getMetadata().setName("train");
        group.getMetadata().setOwnerReferences(List.of(ownerReference(job)));
        client.resource(group).create();
        for (int i = 0; i < 3; i++) {
            Pod pod = Fixtures.pod("train-worker-" + i);
            pod.getMetadata().setOwnerReferences(List.of(ownerReference(job)));
            client.resource(pod).create();
        }
        // A grandchild: owned by a pod, not by the job.
        Pod firstPod = client.pods().withName("train-worker-0").get();
        client.resource(new ConfigMapBuilder().withNewMetadata().withName("train-worker-0-hosts")
                .withOwnerReferences(ownerReference(firstPod)).endMetadata().build()).create();
        client.resource(Fixtures.pod("bystander")).create();

        Set<String> deletedPods = ConcurrentHashMap.newKeySet();
        try (Watch ignored = client.pods().watch(Fixtures.watcher((action, pod) -> {
            if (action == Watcher.Action.DELETED) {
                deletedPods.add(pod.getMetadata().getName());
            }
        }))) {
            client.resource(job).delete();

            await().atMost(PATIENCE).untilAsserted(() -> assertThat(deletedPods)
                    .containsExactlyInAnyOrder("train-worker-0", "train-worker-1", "train-worker-2"));
        }
        assertThat(client.resources(Job.class).withName("train").get()).isNull();
        assertThat(client.resources(PodGroup.class).withName("train").get()).isNull();
        assertThat(client.pods().list().getItems()).extracting(p -> p.getMetadata().getName())
                .contains("bystander").noneMatch(name -> name.startsWith("train-"));
        assertThat(client.configMaps().withName("train-worker-0-hosts").get()).isNull();
    }

    @Test
    void dependentsWaitForTheirOwnerToBeGoneWhenItHasFinalizers() {
        var owner = client.resource(new ConfigMapBuilder().withNewMetadata().withName("guarded")
                .withFinalizers("test.muster.dev/hold").endMetadata().build()).create();
        Pod dependent = Fixtures.pod("guarded-pod");
        dependent.getMetadata().setOwnerReferences(List.of(ownerReference(owner)));
        client.resource(dependent).create();

        client.resource(owner).delete();
        assertThat(client.configMaps().withName("guarded").get().getMetadata().getDeletionTimestamp()).isNotNull();
        assertThat(client.pods().withName("guarded-pod").get()).isNotNull();

        client.configMaps().withName("guarded").edit(cm -> {
            cm.getMetadata().setFinalizers(List.of());
            return cm;
        });
        await().untilAsserted(() -> assertThat(client.pods().withName("guarded-pod").get()).isNull());
    }

    @Test
    void deletingANamespaceDeletesItsContents() {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("doomed").endMetadata().build())
                .create();
        client.pods().inNamespace("doomed").resource(Fixtures.pod("inside")).create();
        client.resource(new ConfigMapBuilder().withNewMetadata().withName("inside").withNamespace("doomed")
                .endMetadata().build()).create();
        client.pods().inNamespace("default").resource(Fixtures.pod("inside")).create();

        client.namespaces().withName("doomed").delete();

        await().untilAsserted(() -> {
            assertThat(client.pods().inNamespace("doomed").list().getItems()).isEmpty();
            assertThat(client.configMaps().inNamespace("doomed").list().getItems()).isEmpty();
        });
        assertThat(client.pods().inNamespace("default").withName("inside").get()).isNotNull();
    }

    @Test
    void theDefaultNamespaceCannotBeDeleted() {
        assertThatThrownBy(() -> client.namespaces().withName("default").delete())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
        assertThat(client.namespaces().withName("default").get()).isNotNull();
    }

    private static OwnerReference ownerReference(HasMetadata owner) {
        return new OwnerReferenceBuilder().withApiVersion(owner.getApiVersion()).withKind(owner.getKind())
                .withName(owner.getMetadata().getName()).withUid(owner.getMetadata().getUid())
                .withController(true).withBlockOwnerDeletion(true).build();
    }
}
