package dev.muster.local.admission;

import dev.muster.local.Fixtures;
import dev.muster.local.KubeletClusterTests;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A pod's priority is resolved at creation as kube-apiserver's Priority admission resolves it: from the class it
 * names, else from the global default class; a class that does not exist is refused.
 */
@Tag("emulator")
class PriorityAdmissionApiTest extends KubeletClusterTests {

    @AfterEach
    void deleteOwnClasses() {
        for (String name : new String[]{"batch-low", "batch-standard", "urgent"}) {
            client.resources(PriorityClass.class).withName(name).delete();
        }
    }

    @Test
    void onlyOneClassIsTheGlobalDefaultAndAPodNamingNoClassGetsTheLowestDefaultsNameValueAndPolicy() {
        Pod before = client.resource(pod("before-default")).create();
        assertThat(before.getSpec().getPriorityClassName()).isNull();
        assertThat(before.getSpec().getPriority()).isZero();
        assertThat(before.getSpec().getPreemptionPolicy()).isEqualTo("PreemptLowerPriority");

        create("batch-standard", 100, true, null);
        assertThatThrownBy(() -> create("batch-low", 10, true, "Never"))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getStatus().getMessage())
                        .isEqualTo("priorityclasses.scheduling.k8s.io \"batch-low\" is forbidden: PriorityClass "
                                + "batch-standard is already marked as default. Only one default can exist"));
        // Two defaults only by a race between two API servers, which the emulator's admission cannot have.
        cluster.createWithoutAdmissionForTests(Serialization.unmarshal(Serialization.asJson(new PriorityClassBuilder()
                .withNewMetadata().withName("batch-low").endMetadata().withValue(10).withGlobalDefault(true)
                .withPreemptionPolicy("Never").build()), GenericKubernetesResource.class));

        Pod created = client.resource(pod("defaulted")).create();

        assertThat(created.getSpec().getPriorityClassName()).isEqualTo("batch-low");
        assertThat(created.getSpec().getPriority()).isEqualTo(10);
        assertThat(created.getSpec().getPreemptionPolicy()).isEqualTo("Never");
    }

    @Test
    void aPodNamingAClassGetsItsValueAndTheClassesKubeApiserverMakesAtStartExist() {
        create("urgent", 1000, false, null);

        Pod urgent = client.resource(new PodBuilder(pod("urgent-pod")).editSpec().withPriorityClassName("urgent")
                .endSpec().build()).create();
        Pod critical = client.resource(new PodBuilder(pod("critical-pod")).editSpec()
                .withPriorityClassName("system-cluster-critical").endSpec().build()).create();

        assertThat(urgent.getSpec().getPriority()).isEqualTo(1000);
        // An update that leaves the resolved fields out keeps them, as on kube-apiserver.
        Pod withoutThem = new PodBuilder(urgent).editMetadata().addToLabels("seen", "yes").endMetadata().editSpec()
                .withPriority(null).withPreemptionPolicy(null).endSpec().build();
        assertThat(client.resource(withoutThem).update().getSpec()).satisfies(spec -> {
            assertThat(spec.getPriority()).isEqualTo(1000);
            assertThat(spec.getPreemptionPolicy()).isEqualTo("PreemptLowerPriority");
        });
        assertThat(urgent.getSpec().getPreemptionPolicy()).isEqualTo("PreemptLowerPriority");
        assertThat(critical.getSpec().getPriority()).isEqualTo(2_000_000_000);
        assertThat(client.resources(PriorityClass.class).withName("system-node-critical").get().getValue())
                .isEqualTo(2_000_001_000);
    }

    @Test
    void aClassThatDoesNotExistOrAPriorityItsClassDoesNotGiveIsRefusedInTheApiServersWords() {
        create("urgent", 1000, false, null);

        assertThatThrownBy(() -> client.resource(new PodBuilder(pod("misspelt")).editSpec()
                .withPriorityClassName("urgnet").endSpec().build()).create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(403);
                    assertThat(e.getStatus().getMessage())
                            .isEqualTo("pods \"misspelt\" is forbidden: no PriorityClass with name urgnet was found");
                });
        assertThatThrownBy(() -> client.resource(new PodBuilder(pod("own-value")).editSpec()
                .withPriorityClassName("urgent").withPriority(5).endSpec().build()).create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getStatus().getMessage())
                        .isEqualTo("pods \"own-value\" is forbidden: the integer value of priority (5) must not be "
                                + "provided in pod spec; priority admission controller computed 1000 from the given "
                                + "PriorityClass name"));
        assertThatThrownBy(() -> client.resource(new PodBuilder(pod("own-policy")).editSpec()
                .withPriorityClassName("urgent").withPreemptionPolicy("Never").endSpec().build()).create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getStatus().getMessage())
                        .isEqualTo("pods \"own-policy\" is forbidden: the string value of PreemptionPolicy (Never) must "
                                + "not be provided in pod spec; priority admission controller computed "
                                + "PreemptLowerPriority from the given PriorityClass name"));
        assertThatThrownBy(() -> client.resource(new PodBuilder(pod("classless-value")).editSpec().withPriority(5)
                .endSpec().build()).create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getStatus().getMessage())
                        .contains("the integer value of priority (5) must not be provided in pod spec; priority "
                                + "admission controller computed 0"));
        assertThat(client.pods().withName("misspelt").get()).isNull();
        assertThat(client.pods().withName("own-value").get()).isNull();
        assertThat(client.resource(new PodBuilder(pod("agreeing")).editSpec().withPriorityClassName("urgent")
                .withPriority(1000).endSpec().build()).create().getSpec().getPriority()).isEqualTo(1000);
    }

    private static void create(String name, int value, boolean globalDefault, String preemptionPolicy) {
        client.resource(new PriorityClassBuilder().withNewMetadata().withName(name).endMetadata().withValue(value)
                .withGlobalDefault(globalDefault).withPreemptionPolicy(preemptionPolicy).build()).create();
    }

    private static Pod pod(String name) {
        return new PodBuilder(Fixtures.pod(name)).editMetadata().withNamespace("default").endMetadata().build();
    }
}
