package dev.muster.api;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PodGroupLabelTest {

    @Test
    void aPodJoinsTheGroupItsLabelNamesInItsNamespace() {
        Pod pod = pod(Map.of(MusterLabels.POD_GROUP, "gang"));

        assertThat(PodGroupLabel.groupName(pod)).contains("gang");
        assertThat(PodGroupLabel.groupKey(pod)).contains("ns/gang");
    }

    @Test
    void noLabelOrABlankOneJoinsNoGroup() {
        assertThat(PodGroupLabel.groupName(pod(Map.of()))).isEmpty();
        assertThat(PodGroupLabel.groupName(pod(Map.of(MusterLabels.POD_GROUP, " ")))).isEmpty();
        assertThat(PodGroupLabel.groupKey(new PodBuilder().withNewMetadata().withNamespace("ns").endMetadata().build()))
                .isEmpty();
    }

    @Test
    void joinSetsTheLabelThatGroupNameReads() {
        Map<String, String> labels = new HashMap<>();
        PodGroupLabel.join(labels, "train");

        assertThat(PodGroupLabel.groupName(pod(labels))).contains("train");
    }

    private static Pod pod(Map<String, String> labels) {
        return new PodBuilder().withNewMetadata().withNamespace("ns").withName("p").withLabels(labels).endMetadata().build();
    }
}
