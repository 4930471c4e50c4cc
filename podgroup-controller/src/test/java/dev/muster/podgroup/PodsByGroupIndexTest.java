package dev.muster.podgroup;

import dev.muster.api.PodFixtures;
import dev.muster.api.MusterLabels;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PodsByGroupIndexTest {

    @Test
    void indexesALabelledPodUnderNamespaceAndGroup() {
        assertThat(PodsByGroupIndex.indexers().get(PodsByGroupIndex.NAME).apply(PodFixtures.labelled(Map.of(MusterLabels.POD_GROUP, "gang"))))
                .containsExactly("ns/gang");
    }

    @Test
    void leavesPodsWithoutAGroupOut() {
        assertThat(PodsByGroupIndex.indexers().get(PodsByGroupIndex.NAME).apply(PodFixtures.labelled(Map.of()))).isEmpty();
        assertThat(PodsByGroupIndex.indexers().get(PodsByGroupIndex.NAME).apply(PodFixtures.labelled(Map.of(MusterLabels.POD_GROUP, " "))))
                .isEmpty();
    }


}
