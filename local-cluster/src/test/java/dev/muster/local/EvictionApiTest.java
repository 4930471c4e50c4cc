package dev.muster.local;

import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetStatus;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The Eviction API and PodDisruptionBudgets through the fabric8 client over HTTP. The pods are bound to a node
 * no kubelet runs, so an evicted pod stays Terminating for the tests to look at.
 */
@Tag("emulator")
class EvictionApiTest extends ApiOnlyClusterTests {
    private static final String BASE = "/api/v1/namespaces/default/pods/";

    @Test
    void evictionWithoutBudgetMarksThePodAndDeletesItGracefullyWithTheEvictionsOptions() {
        client.pods().resource(runningPod("evict-free", "free")).create();

        boolean evicted = client.pods().withName("evict-free").evict(new EvictionBuilder()
                .withNewMetadata().withName("evict-free").withNamespace("default").endMetadata()
                .withDeleteOptions(new DeleteOptionsBuilder().withGracePeriodSeconds(7L).build()).build());

        assertThat(evicted).isTrue();
        Pod pod = client.pods().withName("evict-free").get();
        assertThat(pod.getMetadata().getDeletionTimestamp()).isNotNull();
        assertThat(pod.getMetadata().getDeletionGracePeriodSeconds()).isEqualTo(7L);
        assertThat(pod.getStatus().getConditions()).filteredOn(c -> c.getType().equals("DisruptionTarget"))
                .singleElement().satisfies(c -> {
                    assertThat(c.getStatus()).isEqualTo("True");
                    assertThat(c.getReason()).isEqualTo("EvictionByEvictionAPI");
                    assertThat(c.getMessage()).isEqualTo("Eviction API: evicting");
                });
    }

    @Test
    void successAnswers201WithASuccessStatus() {
        client.pods().resource(runningPod("evict-raw", "raw")).create();

        RawApi.Response response = api.post(BASE + "evict-raw/eviction", eviction("evict-raw"));

        assertThat(response.code()).isEqualTo(201);
        assertThat(response.body().path("status").asText()).isEqualTo("Success");
    }

    @Test
    void budgetStatusIsComputedFromTheSelectedPodsAndAnEvictionBeyondItAnswers429() {
        for (int i = 0; i < 3; i++) {
            client.pods().resource(runningPod("guarded-" + i, "guarded")).create();
        }
        client.pods().resource(runningPod("unguarded", "other")).create();
        client.policy().v1().podDisruptionBudget().resource(budget("guarded", new IntOrString(2), null)).create();
        awaitStatus("guarded", 3, 2, 1);

        assertThat(client.pods().withName("guarded-0").evict()).isTrue();
        assertThat(client.policy().v1().podDisruptionBudget().withName("guarded").get().getStatus().getDisruptionsAllowed())
                .isZero();
        assertThat(client.pods().withName("guarded-1").evict()).isFalse();
        RawApi.Response refused = api.post(BASE + "guarded-2/eviction", eviction("guarded-2"));

        assertThat(refused.code()).isEqualTo(429);
        assertThat(refused.body().path("reason").asText()).isEqualTo("TooManyRequests");
        assertThat(refused.body().path("message").asText())
                .isEqualTo("Cannot evict pod as it would violate the pod's disruption budget.");
        assertThat(refused.body().path("details").path("causes").get(0).path("message").asText())
                .isEqualTo("The disruption budget guarded needs 2 healthy pods and has 2 currently");
        assertThat(client.pods().withName("guarded-1").get().getMetadata().getDeletionTimestamp()).isNull();
        assertThat(client.pods().withName("guarded-1").get().getStatus().getConditions())
                .extracting(PodCondition::getType).doesNotContain("DisruptionTarget");
        assertThat(client.pods().withName("unguarded").evict()).isTrue();
        awaitStatus("guarded", 2, 2, 0);
    }

    @Test
    void maxUnavailablePercentageIsRoundedUp() {
        for (int i = 0; i < 3; i++) {
            client.pods().resource(runningPod("half-" + i, "half")).create();
        }
        client.policy().v1().podDisruptionBudget().resource(budget("half", null, new IntOrString("50%"))).create();

        // 50% of 3 pods rounds up to 2 that may be unavailable, so 1 must stay healthy.
        awaitStatus("half", 3, 1, 2);
    }

    @Test
    void pendingPodsAreEvictedWhateverTheBudgetSays() {
        client.pods().resource(new PodBuilder(Fixtures.pod("pending-guarded")).editMetadata()
                .withLabels(Map.of("app", "pending")).endMetadata().build()).create();
        client.policy().v1().podDisruptionBudget().resource(budget("pending", new IntOrString(1), null)).create();
        awaitStatus("pending", 0, 1, 0);

        assertThat(client.pods().withName("pending-guarded").evict()).isTrue();

        assertThat(client.pods().withName("pending-guarded").get()).isNull();
    }

    @Test
    void aPodTwoBudgetsSelectIsRefused() {
        client.pods().resource(runningPod("doubly", "doubly")).create();
        client.policy().v1().podDisruptionBudget().resource(budget("doubly-a", new IntOrString(0), null)).create();
        client.policy().v1().podDisruptionBudget().resource(budget("doubly-b", new IntOrString(0), null)).create();

        RawApi.Response response = api.post(BASE + "doubly/eviction", eviction("doubly"));

        assertThat(response.code()).isEqualTo(500);
        assertThat(response.body().path("message").asText()).contains("more than one PodDisruptionBudget");
        assertThat(client.pods().withName("doubly").get().getMetadata().getDeletionTimestamp()).isNull();
    }

    @Test
    void badEvictionsAreAnsweredAsTheApiServerDoes() {
        client.pods().resource(runningPod("evict-bad", "bad")).create();

        assertThat(api.post(BASE + "evict-bad/eviction", eviction("someone-else")).code()).isEqualTo(400);
        assertThatThrownBy(() -> client.pods().withName("no-such-pod").evict())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(404));
        RawApi.Response wrongUid = api.post(BASE + "evict-bad/eviction", Map.of("apiVersion", "policy/v1",
                "kind", "Eviction", "metadata", Map.of("name", "evict-bad"),
                "deleteOptions", Map.of("preconditions", Map.of("uid", "not-its-uid"))));
        assertThat(wrongUid.code()).isEqualTo(409);
        RawApi.Response dryRun = api.post(BASE + "evict-bad/eviction", Map.of("apiVersion", "policy/v1",
                "kind", "Eviction", "metadata", Map.of("name", "evict-bad"),
                "deleteOptions", Map.of("dryRun", java.util.List.of("All"))));
        assertThat(dryRun.code()).isEqualTo(400);
        assertThat(dryRun.body().path("message").asText()).contains("deleteOptions.dryRun");
        assertThat(client.pods().withName("evict-bad").get().getMetadata().getDeletionTimestamp()).isNull();
    }

    @Test
    void discoveryListsTheEvictionSubresourceAndBudgets() {
        assertThat(client.getApiResources("v1").getResources())
                .anySatisfy(r -> {
                    assertThat(r.getName()).isEqualTo("pods/eviction");
                    assertThat(r.getGroup()).isEqualTo("policy");
                    assertThat(r.getKind()).isEqualTo("Eviction");
                });
        assertThat(client.getApiResources("policy/v1").getResources())
                .anySatisfy(r -> assertThat(r.getShortNames()).containsExactly("pdb"));
    }

    private static void awaitStatus(String budget, int currentHealthy, int desiredHealthy, int allowed) {
        await().untilAsserted(() -> {
            PodDisruptionBudgetStatus status = client.policy().v1().podDisruptionBudget().withName(budget).get().getStatus();
            assertThat(status).isNotNull();
            assertThat(status.getCurrentHealthy()).isEqualTo(currentHealthy);
            assertThat(status.getDesiredHealthy()).isEqualTo(desiredHealthy);
            assertThat(status.getDisruptionsAllowed()).isEqualTo(allowed);
        });
    }

    /** A pod bound to a node without a kubelet, Running and Ready, labelled {@code app}. */
    private static Pod runningPod(String name, String app) {
        return new PodBuilder(Fixtures.pod(name)).editMetadata().withLabels(Map.of("app", app)).endMetadata()
                .editSpec().withNodeName("no-kubelet").endSpec()
                .withNewStatus().withPhase("Running")
                .addNewCondition().withType("Ready").withStatus("True").endCondition()
                .endStatus().build();
    }

    private static PodDisruptionBudget budget(String name, IntOrString minAvailable, IntOrString maxUnavailable) {
        String app = name.startsWith("doubly") ? "doubly" : name;
        return new PodDisruptionBudgetBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withMinAvailable(minAvailable).withMaxUnavailable(maxUnavailable)
                .withNewSelector().withMatchLabels(Map.of("app", app)).endSelector().endSpec().build();
    }

    private static Map<String, Object> eviction(String name) {
        return Map.of("apiVersion", "policy/v1", "kind", "Eviction", "metadata", Map.of("name", name));
    }
}
