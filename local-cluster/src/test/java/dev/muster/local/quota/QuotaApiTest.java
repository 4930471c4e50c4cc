package dev.muster.local.quota;

import dev.muster.local.Fixtures;
import dev.muster.local.KubeletClusterTests;
import dev.muster.local.Patience;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.api.model.ResourceQuotaStatus;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * ResourceQuotas through the fabric8 client over HTTP, on a cluster with a kubelet that finishes the pods bound to
 * its nodes: creations refused with kube-apiserver's 403s, and {@code status.used} as kube-controller-manager keeps it.
 */
@Tag("emulator")
class QuotaApiTest extends KubeletClusterTests {

    private static void namespace(String name) {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
                .create();
    }

    private static ResourceQuota quota(String namespace, String name, Map<String, String> hard) {
        ResourceQuotaBuilder builder = new ResourceQuotaBuilder().withNewMetadata().withName(name)
                .withNamespace(namespace).endMetadata().withNewSpec().endSpec();
        hard.forEach((resource, amount) -> builder.editSpec().addToHard(resource, new Quantity(amount)).endSpec());
        return client.resourceQuotas().inNamespace(namespace).resource(builder.build()).create();
    }

    /** A pod asking for {@code cpu} that, once bound, runs for {@code runSeconds}. */
    private static Pod pod(String name, String cpu, int runSeconds) {
        return new PodBuilder(Fixtures.pod(name)).editMetadata()
                .addToAnnotations("local.muster.dev/run-seconds", String.valueOf(runSeconds)).endMetadata()
                .editSpec().editFirstContainer().withNewResources().addToRequests("cpu", new Quantity(cpu))
                .endResources().endContainer().endSpec().build();
    }

    /** A quota's status as {@code kubectl get quota -o yaml} shows it: each resource's amount as written. */
    private static Map<String, String> shown(Map<String, Quantity> list) {
        Map<String, String> shown = new TreeMap<>();
        if (list != null) {
            list.forEach((resource, amount) -> shown.put(resource, amount.toString()));
        }
        return shown;
    }

    private static Map<String, String> used(String namespace, String quota) {
        ResourceQuotaStatus status = client.resourceQuotas().inNamespace(namespace).withName(quota).get().getStatus();
        return shown(status == null ? null : status.getUsed());
    }

    @Test
    void podsAreCreatedUntilTheQuotaRefusesOneWithKubeApiserversMessage() {
        namespace("quota-full");
        quota("quota-full", "compute", Map.of("pods", "2", "requests.cpu", "2"));
        var pods = client.pods().inNamespace("quota-full");

        pods.resource(pod("first", "1", 3600)).create();
        pods.resource(pod("second", "500m", 3600)).create();
        assertThat(used("quota-full", "compute")).isEqualTo(Map.of("pods", "2", "requests.cpu", "1500m"));
        assertThatThrownBy(() -> pods.resource(pod("third", "1", 3600)).create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(403);
                    assertThat(e.getStatus().getReason()).isEqualTo("Forbidden");
                    assertThat(e.getStatus().getMessage()).isEqualTo("pods \"third\" is forbidden: exceeded quota: "
                            + "compute, requested: pods=1,requests.cpu=1, used: pods=2,requests.cpu=1500m, "
                            + "limited: pods=2,requests.cpu=2");
                });
        assertThat(pods.withName("third").get()).isNull();
        assertThat(shown(client.resourceQuotas().inNamespace("quota-full").withName("compute").get().getStatus()
                .getHard())).isEqualTo(Map.of("pods", "2", "requests.cpu", "2"));
    }

    @Test
    void theControllerCountsThePodsAQuotaFindsAndFreesTheShareOfFinishedAndDeletedOnes() {
        namespace("quota-freed");
        var pods = client.pods().inNamespace("quota-freed");
        pods.resource(pod("long", "500m", 3600)).create();
        quota("quota-freed", "compute", Map.of("pods", "2", "requests.cpu", "2"));
        await().atMost(Patience.PATIENCE).untilAsserted(() ->
                assertThat(used("quota-freed", "compute")).isEqualTo(Map.of("pods", "1", "requests.cpu", "500m")));

        pods.resource(pod("short", "1", 0)).create();
        client.bindings().inNamespace("quota-freed").resource(Fixtures.binding("short", "node-0")).create();
        await().atMost(Patience.PATIENCE).untilAsserted(() ->
                assertThat(used("quota-freed", "compute")).isEqualTo(Map.of("pods", "1", "requests.cpu", "500m")));
        assertThat(pods.withName("short").get().getStatus().getPhase()).isEqualTo("Succeeded");

        pods.resource(pod("third", "1", 3600)).create();
        assertThat(used("quota-freed", "compute")).isEqualTo(Map.of("pods", "2", "requests.cpu", "1500m"));
        pods.withName("long").withGracePeriod(0).delete();
        await().atMost(Patience.PATIENCE).untilAsserted(() ->
                assertThat(used("quota-freed", "compute")).isEqualTo(Map.of("pods", "1", "requests.cpu", "1")));
    }

    @Test
    void aDryRunIsJudgedButNeverCounted() {
        namespace("quota-dry");
        quota("quota-dry", "compute", Map.of("pods", "2", "requests.cpu", "2"));
        var pods = client.pods().inNamespace("quota-dry");
        pods.resource(pod("first", "1", 3600)).create();

        pods.resource(pod("fits", "1", 3600)).dryRun().create();
        assertThat(used("quota-dry", "compute")).isEqualTo(Map.of("pods", "1", "requests.cpu", "1"));
        assertThat(pods.withName("fits").get()).isNull();
        assertThatThrownBy(() -> pods.resource(pod("too-big", "1500m", 3600)).dryRun().create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getStatus().getMessage())
                        .isEqualTo("pods \"too-big\" is forbidden: exceeded quota: compute, requested: "
                                + "requests.cpu=1500m, used: requests.cpu=1, limited: requests.cpu=2"));
        pods.resource(pod("second", "1", 3600)).create();
        assertThat(used("quota-dry", "compute")).isEqualTo(Map.of("pods", "2", "requests.cpu", "2"));
    }

    @Test
    void aQuotaOnLimitsRefusesAContainerWithoutOne() {
        namespace("quota-limits");
        quota("quota-limits", "limits", Map.of("limits.cpu", "4"));

        assertThatThrownBy(() -> client.pods().inNamespace("quota-limits").resource(pod("bare", "1", 3600)).create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(403);
                    assertThat(e.getStatus().getMessage())
                            .isEqualTo("pods \"bare\" is forbidden: failed quota: limits: must specify limits.cpu for: main");
                });
        Pod limited = new PodBuilder(pod("limited", "1", 3600)).editSpec().editFirstContainer().editResources()
                .addToLimits("cpu", new Quantity("1")).endResources().endContainer().endSpec().build();
        client.pods().inNamespace("quota-limits").resource(limited).create();
        assertThat(used("quota-limits", "limits")).isEqualTo(Map.of("limits.cpu", "1"));
    }
}
