package dev.muster.local.admission;

import dev.muster.local.Fixtures;
import dev.muster.local.KubeletClusterTests;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.LimitRangeBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A pod created in a namespace with LimitRanges gets their container defaults, as kube-apiserver's LimitRanger. */
@Tag("emulator")
class LimitRangerApiTest extends KubeletClusterTests {

    @Test
    void containersGetTheDefaultsTheyLackAndThePodSaysWhatWasSet() {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("limited").endMetadata().build())
                .create();
        // The second item only has a max: it is the default limit of memory, and the default request too.
        client.limitRanges().inNamespace("limited").resource(new LimitRangeBuilder().withNewMetadata()
                .withName("defaults").endMetadata().withNewSpec()
                .addNewLimit().withType("Container").withDefault(Map.of("cpu", new Quantity("2")))
                .withDefaultRequest(Map.of("cpu", new Quantity("500m"))).endLimit()
                .addNewLimit().withType("Container").withMax(Map.of("memory", new Quantity("1Gi"))).endLimit()
                .addNewLimit().withType("Pod").withMax(Map.of("cpu", new Quantity("64"))).endLimit()
                .endSpec().build()).create();
        Container sized = new ContainerBuilder().withName("sized").withImage("busybox").withNewResources()
                .addToLimits("cpu", new Quantity("1")).addToRequests("memory", new Quantity("256Mi")).endResources().build();
        Pod pod = new PodBuilder(Fixtures.pod("p")).editMetadata().withNamespace("limited").endMetadata().editSpec()
                .addToContainers(sized).endSpec().build();

        Pod created = client.pods().inNamespace("limited").resource(pod).create();

        Container bare = created.getSpec().getContainers().get(0);
        assertThat(shown(bare.getResources().getLimits())).containsExactly(Map.entry("cpu", "2"), Map.entry("memory", "1Gi"));
        assertThat(shown(bare.getResources().getRequests())).containsExactly(Map.entry("cpu", "500m"),
                Map.entry("memory", "1Gi"));
        Container own = created.getSpec().getContainers().get(1);
        // Its cpu limit stands for its cpu request; its memory request is kept.
        assertThat(shown(own.getResources().getLimits())).containsExactly(Map.entry("cpu", "1"), Map.entry("memory", "1Gi"));
        assertThat(shown(own.getResources().getRequests())).containsExactly(Map.entry("memory", "256Mi"));
        assertThat(created.getMetadata().getAnnotations()).containsEntry(LimitRanger.ANNOTATION, "LimitRanger plugin set: "
                + "cpu, memory request for container " + bare.getName() + "; cpu, memory limit for container "
                + bare.getName() + "; memory limit for container sized");
        assertThat(client.pods().inNamespace("limited").withName(created.getMetadata().getName()).get().getSpec()
                .getContainers().get(0).getResources().getRequests()).containsEntry("cpu", new Quantity("500m"));
    }

    @Test
    void aNamespaceWithoutLimitRangesLeavesPodsAsTheyAre() {
        Pod created = client.pods().inNamespace("default").resource(Fixtures.pod("plain")).create();

        assertThat(created.getMetadata().getAnnotations()).doesNotContainKey(LimitRanger.ANNOTATION);
        assertThat(created.getSpec().getContainers().get(0).getResources() == null
                || created.getSpec().getContainers().get(0).getResources().getRequests().isEmpty()).isTrue();
    }

    private static Map<String, String> shown(Map<String, Quantity> quantities) {
        Map<String, String> shown = new TreeMap<>();
        quantities.forEach((name, quantity) -> shown.put(name, quantity.toString()));
        return shown;
    }

    @Test
    void aContainerOutsideTheBoundsIsRefusedInKubesWords() {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("bounded").endMetadata().build())
                .create();
        client.limitRanges().inNamespace("bounded").resource(new LimitRangeBuilder().withNewMetadata()
                .withName("bounds").endMetadata().withNewSpec().addNewLimit().withType("Container")
                .withMax(Map.of("cpu", new Quantity("2"))).withMin(Map.of("memory", new Quantity("64Mi")))
                .withMaxLimitRequestRatio(Map.of("cpu", new Quantity("2"))).endLimit().endSpec().build()).create();
        Container big = new ContainerBuilder().withName("main").withImage("busybox").withNewResources()
                .addToLimits("cpu", new Quantity("4")).addToRequests("cpu", new Quantity("1"))
                .addToRequests("memory", new Quantity("32Mi")).endResources().build();
        Pod pod = new PodBuilder(Fixtures.pod("big")).editMetadata().withNamespace("bounded").endMetadata().editSpec()
                .withContainers(big).endSpec().build();

        assertThatThrownBy(() -> client.pods().inNamespace("bounded").resource(pod).create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(403);
                    assertThat(e.getStatus().getMessage()).isEqualTo("pods \"big\" is forbidden: [minimum memory usage "
                            + "per Container is 64Mi, but request is 32Mi, maximum cpu usage per Container is 2, but limit "
                            + "is 4, cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000]");
                });
        Pod small = new PodBuilder(pod).editMetadata().withName("small").endMetadata().editSpec().editFirstContainer()
                .editResources().addToLimits("cpu", new Quantity("2")).addToRequests("memory", new Quantity("64Mi"))
                .endResources().endContainer().endSpec().build();
        assertThat(client.pods().inNamespace("bounded").resource(small).create().getMetadata().getName()).isEqualTo("small");
    }
}
