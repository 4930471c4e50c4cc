package dev.muster.local;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

@Tag("emulator")
class PodBindingTest extends ApiOnlyClusterTests {
    @Test
    void bindingSubresourceSetsNodeNameAndScheduledConditionAndWatchersSeeIt() {
        Pod created = client.pods().resource(Fixtures.pod("bind-me")).create();
        List<Pod> modified = new CopyOnWriteArrayList<>();
        try (Watch ignored = client.pods().withName("bind-me").watch(Fixtures.watcher((action, pod) -> {
            if (action == Watcher.Action.MODIFIED) {
                modified.add(pod);
            }
        }))) {
            RawApi.Response response = api.post("/api/v1/namespaces/default/pods/bind-me/binding",
                    Fixtures.binding("bind-me", "node-7"));

            assertThat(response.code()).isEqualTo(201);
            assertThat(response.body().path("status").asText()).isEqualTo("Success");
            await().until(() -> !modified.isEmpty());
        }
        Pod bound = modified.get(0);
        assertThat(bound.getSpec().getNodeName()).isEqualTo("node-7");
        assertThat(bound.getStatus().getConditions()).filteredOn(c -> c.getType().equals("PodScheduled"))
                .extracting(PodCondition::getStatus).containsExactly("True");
        assertThat(Long.parseLong(bound.getMetadata().getResourceVersion()))
                .isGreaterThan(Long.parseLong(created.getMetadata().getResourceVersion()));
        assertThat(client.pods().withName("bind-me").get().getSpec().getNodeName()).isEqualTo("node-7");
    }

    @Test
    void bindingReplacesAnUnschedulableCondition() {
        Pod pod = Fixtures.pod("was-unschedulable");
        pod.setStatus(new PodStatusBuilder().withPhase("Pending")
                .addNewCondition().withType("PodScheduled").withStatus("False").withReason("Unschedulable").endCondition()
                .build());
        client.pods().resource(pod).create();

        client.bindings().inNamespace("default").resource(Fixtures.binding("was-unschedulable", "node-1")).create();

        assertThat(client.pods().withName("was-unschedulable").get().getStatus().getConditions())
                .filteredOn(c -> c.getType().equals("PodScheduled"))
                .singleElement()
                .satisfies(c -> {
                    assertThat(c.getStatus()).isEqualTo("True");
                    assertThat(c.getReason()).isNull();
                });
    }

    @Test
    void bindingABoundPodAnswersConflict() {
        client.pods().resource(Fixtures.pod("bound-twice")).create();
        client.bindings().inNamespace("default").resource(Fixtures.binding("bound-twice", "node-0")).create();

        assertThatThrownBy(() -> client.bindings().inNamespace("default")
                .resource(Fixtures.binding("bound-twice", "node-1")).create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(409);
                    assertThat(e.getStatus().getReason()).isEqualTo("Conflict");
                    assertThat(e.getStatus().getMessage()).contains("already assigned to node \"node-0\"");
                });
        RawApi.Response subresource = api.post("/api/v1/namespaces/default/pods/bound-twice/binding",
                Fixtures.binding("bound-twice", "node-1"));
        assertThat(subresource.code()).isEqualTo(409);
        assertThat(client.pods().withName("bound-twice").get().getSpec().getNodeName()).isEqualTo("node-0");
    }

    @Test
    void bindingWithAnotherPodsUidAnswersConflict() {
        client.pods().resource(Fixtures.pod("recreated")).create();
        var binding = Fixtures.binding("recreated", "node-0");
        binding.getMetadata().setUid("uid-of-an-earlier-pod");

        RawApi.Response response = api.post("/api/v1/namespaces/default/pods/recreated/binding", binding);

        assertThat(response.code()).isEqualTo(409);
        assertThat(client.pods().withName("recreated").get().getSpec().getNodeName()).isNull();
    }

    @Test
    void bindingAMissingPodAnswersNotFound() {
        assertThatThrownBy(() -> client.bindings().inNamespace("default")
                .resource(Fixtures.binding("no-such-pod", "node-0")).create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(404));
        assertThat(api.post("/api/v1/namespaces/default/pods/no-such-pod/binding",
                Fixtures.binding("no-such-pod", "node-0")).code()).isEqualTo(404);
    }

    @Test
    void bindingWithoutTargetIsInvalid() {
        client.pods().resource(Fixtures.pod("no-target")).create();
        var binding = Fixtures.binding("no-target", "node-0");
        binding.getTarget().setName(null);

        assertThat(api.post("/api/v1/namespaces/default/pods/no-target/binding", binding).code()).isEqualTo(422);
        assertThat(client.pods().withName("no-target").get().getSpec().getNodeName()).isNull();
    }
}
