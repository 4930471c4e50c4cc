package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.CoreFixtures;
import dev.muster.scheduler.core.QueueFixtures;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.NodeSelectorRequirement;
import dev.muster.scheduler.core.model.NodeSelectorTerm;
import dev.muster.scheduler.core.model.PlacementConstraints;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.VolumeTopology;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.muster.scheduler.core.QueueFixtures.gpuNode;
import static org.assertj.core.api.Assertions.assertThat;

/** Pinning a promised preemptor's pods to their nodes adds to their constraints and takes nothing away. */
class NodeNamePinTest {

    @Test
    void aPinnedPodKeepsItsVolumeTopologyAndIsHeldToItsNodes() {
        NodeInfo inZone = new NodeInfo("n1", Map.of("zone", "a"), gpuNode("n1").allocatable(), true, false);
        NodeInfo otherZone = new NodeInfo("n2", Map.of("zone", "b"), gpuNode("n2").allocatable(), true, false);
        VolumeTopology zoneA = new VolumeTopology(List.of(new NodeSelectorTerm(List.of(new NodeSelectorRequirement(
                "zone", NodeSelectorRequirement.Operator.In, List.of("a"))), List.of())), VolumeTopology.NODE_CONFLICT);
        GangInfo gang = QueueFixtures.gang("g", "q", 1, 0, 0, null);
        PodInfo pod = QueueFixtures.gpuPods(gang, 1, 1).get(0);
        PodInfo withVolume = pod.withConstraints(pod.constraints().withVolumes(List.of(zoneA)));

        LocalityDomains.Pinned pinned = NodeNamePin.pin(CoreFixtures.pending(gang, List.of(withVolume)),
                p -> Set.of("n1", "n2"));

        PlacementConstraints constraints = pinned.gang().pending().get(0).constraints();
        assertThat(constraints.volumes()).containsExactly(zoneA);
        assertThat(constraints.rejection(inZone)).isNull();
        assertThat(constraints.rejection(otherZone)).isEqualTo(VolumeTopology.NODE_CONFLICT);
        NodeInfo elsewhere = new NodeInfo("n3", Map.of("zone", "a"), gpuNode("n3").allocatable(), true, false);
        assertThat(constraints.rejection(elsewhere)).isNotNull();
    }
}
