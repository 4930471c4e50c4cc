package dev.muster.podgroup;

import dev.muster.api.MusterLabels;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PodsByGroupIndexTest {

    @Test
    void indexesALabelledPodUnderNamespaceAndGroup() {
        assertThat(PodsByGroupIndex.indexers().get(PodsByGroupIndex.NAME).apply(pod(Map.of(MusterLabels.POD_GROUP, "gang"))))
                .containsExactly("ns/gang");
    }

    @Test
    void leavesPodsWithoutAGroupOut() {
        assertThat(PodsByGroupIndex.indexers().get(PodsByGroupIndex.NAME).apply(pod(Map.of()))).isEmpty();
        assertThat(PodsByGroupIndex.indexers().get(PodsByGroupIndex.NAME).apply(pod(Map.of(MusterLabels.POD_GROUP, " "))))
                .isEmpty();
    }

    private static Pod pod(Map<String, String> labels) {
        return new PodBuilder().withNewMetadata().withNamespace("ns").withName("p").withLabels(labels).endMetadata().build();
    }

}
