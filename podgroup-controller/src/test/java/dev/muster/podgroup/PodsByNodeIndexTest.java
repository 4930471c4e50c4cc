package dev.muster.podgroup;

import dev.muster.api.PodFixtures;
import dev.muster.api.MusterLabels;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PodsByNodeIndexTest {

    @Test
    void indexesABoundGroupMemberUnderItsNode() {
        assertThat(index(PodFixtures.labelled(Map.of(MusterLabels.POD_GROUP, "gang"), "node-1"))).containsExactly("node-1");
    }

    @Test
    void leavesUnboundPodsAndPodsOfNoGroupOut() {
        assertThat(index(PodFixtures.labelled(Map.of(MusterLabels.POD_GROUP, "gang"), null))).isEmpty();
        assertThat(index(PodFixtures.labelled(Map.of(), "node-1"))).isEmpty();
    }

    private static List<String> index(Pod pod) {
        return PodsByNodeIndex.indexers().get(PodsByNodeIndex.NAME).apply(pod);
    }

}
