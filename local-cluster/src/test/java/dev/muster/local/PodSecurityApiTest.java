package dev.muster.local;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Pods are admitted by the Pod Security Standards labels of their namespace, as kube-apiserver's PodSecurity
 * admission admits them: refused with 403 under {@code enforce}, created with a warning under {@code warn}.
 */
@Tag("emulator")
class PodSecurityApiTest extends ApiOnlyClusterTests {
    private static final String RESTRICTED = "psa-restricted";
    private static final String WARNED = "psa-warn-baseline";
    private static final String UNLABELLED = "psa-unlabelled";
    private static final String PLAIN_POD_REFUSAL = "violates PodSecurity \"restricted:latest\": "
            + "allowPrivilegeEscalation != false (container \"main\" must set securityContext.allowPrivilegeEscalation=false), "
            + "unrestricted capabilities (container \"main\" must set securityContext.capabilities.drop=[\"ALL\"]), "
            + "runAsNonRoot != true (pod or container \"main\" must set securityContext.runAsNonRoot=true), "
            + "seccompProfile (pod or container \"main\" must set securityContext.seccompProfile.type to "
            + "\"RuntimeDefault\" or \"Localhost\")";

    @BeforeAll
    static void namespaces() {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(RESTRICTED)
                .withLabels(Map.of("pod-security.kubernetes.io/enforce", "restricted")).endMetadata().build()).create();
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(WARNED)
                .withLabels(Map.of("pod-security.kubernetes.io/warn", "baseline")).endMetadata().build()).create();
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(UNLABELLED).endMetadata()
                .build()).create();
    }

    private static String pods(String namespace) {
        return "/api/v1/namespaces/" + namespace + "/pods";
    }

    private static Pod privileged(String name) {
        Pod pod = Fixtures.pod(name);
        pod.getSpec().getContainers().get(0).setSecurityContext(new SecurityContextBuilder().withPrivileged(true).build());
        return pod;
    }

    @Test
    void aPlainPodInARestrictedNamespaceIsForbiddenInKubesWords() {
        KubernetesClientException refused = catchThrowableOfType(KubernetesClientException.class,
                () -> client.pods().inNamespace(RESTRICTED).resource(Fixtures.pod("plain")).create());

        assertThat(refused.getCode()).isEqualTo(403);
        assertThat(refused.getStatus().getReason()).isEqualTo("Forbidden");
        assertThat(refused.getStatus().getMessage()).isEqualTo("pods \"plain\" is forbidden: " + PLAIN_POD_REFUSAL);
        assertThat(refused.getStatus().getDetails().getKind()).isEqualTo("pods");
        assertThat(refused.getStatus().getDetails().getName()).isEqualTo("plain");
        assertThat(refused.getStatus().getDetails().getCauses()).isEmpty();
        assertThat(client.pods().inNamespace(RESTRICTED).withName("plain").get()).isNull();
    }

    @Test
    void aDryRunIsForbiddenAlikeAndStoresNothing() {
        RawApi.Response response = api.post(pods(RESTRICTED) + "?dryRun=All", Fixtures.pod("plain-dry-run"));

        assertThat(response.code()).isEqualTo(403);
        assertThat(response.body().path("reason").asText()).isEqualTo("Forbidden");
        assertThat(response.body().path("message").asText())
                .isEqualTo("pods \"plain-dry-run\" is forbidden: " + PLAIN_POD_REFUSAL);
        assertThat(client.pods().inNamespace(RESTRICTED).withName("plain-dry-run").get()).isNull();
    }

    @Test
    void anInvalidPodIsRefusedByValidationBeforePodSecurity() {
        Pod pod = Fixtures.pod("no-image");
        pod.getSpec().getContainers().get(0).setImage(null);

        RawApi.Response response = api.post(pods(RESTRICTED), pod);

        assertThat(response.code()).isEqualTo(422);
    }

    @Test
    void aPodThatMeetsRestrictedIsCreated() {
        Pod pod = Fixtures.pod("hardened");
        pod.getSpec().setSecurityContext(new PodSecurityContextBuilder().withRunAsNonRoot(true)
                .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile().build());
        pod.getSpec().getContainers().get(0).setSecurityContext(new SecurityContextBuilder()
                .withAllowPrivilegeEscalation(false).withNewCapabilities().withDrop("ALL").endCapabilities().build());

        RawApi.Response response = api.post(pods(RESTRICTED), pod);

        assertThat(response.code()).isEqualTo(201);
        assertThat(response.warnings()).isEmpty();
        assertThat(client.pods().inNamespace(RESTRICTED).withName("hardened").get()).isNotNull();
    }

    @Test
    void aPrivilegedPodInAWarnBaselineNamespaceIsCreatedWithAWarning() {
        RawApi.Response response = api.post(pods(WARNED), privileged("privileged"));

        assertThat(response.code()).isEqualTo(201);
        assertThat(response.warnings()).containsExactly("299 - \"would violate PodSecurity \\\"baseline:latest\\\": "
                + "privileged (container \\\"main\\\" must not set securityContext.privileged=true)\"");
        assertThat(client.pods().inNamespace(WARNED).withName("privileged").get()).isNotNull();
    }

    @Test
    void aNamespaceWithoutLabelsAdmitsAnyPod() {
        Pod pod = privileged("anything-goes");
        pod.getSpec().setHostNetwork(true);

        RawApi.Response response = api.post(pods(UNLABELLED), pod);

        assertThat(response.code()).isEqualTo(201);
        assertThat(response.warnings()).isEqualTo(List.of());
    }
}
