package dev.muster.scheduler.core.model;

import dev.muster.scheduler.core.CoreFixtures;
import dev.muster.scheduler.core.cluster.ClusterState;
import dev.muster.scheduler.core.placement.GangPlacement;
import dev.muster.scheduler.core.placement.GangTrial;
import dev.muster.scheduler.core.placement.PodPlacement;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.muster.scheduler.core.CoreFixtures.ZONE;
import static dev.muster.scheduler.core.CoreFixtures.cluster;
import static dev.muster.scheduler.core.CoreFixtures.cpu;
import static dev.muster.scheduler.core.CoreFixtures.gang;
import static dev.muster.scheduler.core.CoreFixtures.pending;
import static dev.muster.scheduler.core.CoreFixtures.pod;
import static dev.muster.scheduler.core.CoreFixtures.zoned;
import static org.assertj.core.api.Assertions.assertThat;

/** A pod's claims restrict its nodes as kube-scheduler's VolumeBinding filter does. */
class VolumeCatalogTest {
    private static NodeSelectorTerm inZone(String zone) {
        return new NodeSelectorTerm(List.of(new NodeSelectorRequirement(ZONE, NodeSelectorRequirement.Operator.In,
                List.of(zone))), List.of());
    }

    private static VolumeCatalog catalog() {
        VolumeCatalog catalog = new VolumeCatalog();
        catalog.putVolume(new PersistentVolumeInfo("pv-b", List.of(inZone("b"))));
        catalog.putVolume(new PersistentVolumeInfo("pv-anywhere", List.of()));
        catalog.putStorageClass(new StorageClassInfo("late-in-c", true, List.of(inZone("c"))));
        catalog.putStorageClass(new StorageClassInfo("late", true, List.of()));
        catalog.putStorageClass(new StorageClassInfo("early", false, List.of()));
        catalog.putClaim(new ClaimInfo("ns", "bound-b", "pv-b", "early"));
        catalog.putClaim(new ClaimInfo("ns", "bound-anywhere", "pv-anywhere", null));
        catalog.putClaim(new ClaimInfo("ns", "bound-gone", "pv-gone", null));
        catalog.putClaim(new ClaimInfo("ns", "unbound-late-in-c", null, "late-in-c"));
        catalog.putClaim(new ClaimInfo("ns", "unbound-late", null, "late"));
        catalog.putClaim(new ClaimInfo("ns", "unbound-early", null, "early"));
        catalog.putClaim(new ClaimInfo("ns", "unbound-no-class", null, ""));
        catalog.putClaim(new ClaimInfo("ns", "unbound-unknown-class", null, "gold"));
        return catalog;
    }

    @Test
    void eachClaimRestrictsNodesAsVolumeBindingDoes() {
        VolumeCatalog catalog = catalog();

        assertThat(catalog.topologiesOf("ns", List.of("bound-b")))
                .containsExactly(new VolumeTopology(List.of(inZone("b")), VolumeTopology.NODE_CONFLICT));
        assertThat(catalog.topologiesOf("ns", List.of("unbound-late-in-c")))
                .containsExactly(new VolumeTopology(List.of(inZone("c")), VolumeTopology.BIND_CONFLICT));
        assertThat(catalog.topologiesOf("ns", List.of("bound-anywhere", "unbound-late"))).isEmpty();
        assertThat(catalog.topologiesOf("ns", List.of("unbound-early", "unbound-no-class", "bound-gone",
                "unbound-unknown-class", "missing"))).extracting(VolumeTopology::reason).containsExactly(
                "pod has unbound immediate PersistentVolumeClaims (unbound-early)",
                "pod has unbound immediate PersistentVolumeClaims (unbound-no-class)",
                VolumeCatalog.VOLUME_NOT_FOUND,
                "storageclass.storage.k8s.io \"gold\" not found",
                "persistentvolumeclaim \"missing\" not found");
        assertThat(catalog.topologiesOf("other", List.of("bound-b"))).extracting(VolumeTopology::reason)
                .containsExactly("persistentvolumeclaim \"bound-b\" not found");
    }

    @Test
    void aPodGoesWhereEveryVolumeCanBeUsedOrNowhereAndSaysWhy() {
        ClusterState state = cluster(zoned("a-0", 4, "a"), zoned("b-0", 4, "b"), zoned("c-0", 4, "c"));
        VolumeCatalog catalog = catalog();
        GangInfo gang = gang("g", 1);
        PodInfo plain = pod(gang, "p", "", cpu(1));
        GangTrial trial = new GangTrial(state.snapshot());

        GangPlacement inB = trial.attempt(pending(gang, List.of(catalog.withVolumeTopology(plain,
                List.of("bound-b", "unbound-late")))));
        GangPlacement conflicting = trial.attempt(pending(gang, List.of(catalog.withVolumeTopology(plain,
                List.of("bound-b", "unbound-late-in-c")))));
        GangPlacement waiting = trial.attempt(pending(gang, List.of(catalog.withVolumeTopology(plain,
                List.of("unbound-early")))));

        assertThat(inB.placements()).extracting(PodPlacement::nodeName).containsExactly("b-0");
        assertThat(conflicting.unschedulable().message()).isEqualTo("0/3 nodes are available: 1 "
                + VolumeTopology.BIND_CONFLICT + ", 2 " + VolumeTopology.NODE_CONFLICT + ".");
        assertThat(waiting.unschedulable().message()).isEqualTo("0/3 nodes are available: 3 pod has unbound "
                + "immediate PersistentVolumeClaims (unbound-early).");
    }

    @Test
    void onlyUnboundWaitForFirstConsumerClaimsAreToBeProvisionedForTheirPodsNode() {
        assertThat(catalog().claimsToProvision("ns", List.of("bound-b", "unbound-late-in-c", "unbound-late",
                "unbound-early", "unbound-no-class", "unbound-unknown-class", "missing")))
                .containsExactly("unbound-late-in-c", "unbound-late");
    }

    @Test
    void aChangeIsReportedOnlyWhenSomethingChanged() {
        VolumeCatalog catalog = new VolumeCatalog();

        assertThat(catalog.putClaim(new ClaimInfo("ns", "c", null, "late"))).isTrue();
        assertThat(catalog.putClaim(new ClaimInfo("ns", "c", null, "late"))).isFalse();
        assertThat(catalog.putClaim(new ClaimInfo("ns", "c", "pv", "late"))).isTrue();
        assertThat(catalog.removeClaim("ns", "c")).isTrue();
        assertThat(catalog.removeClaim("ns", "c")).isFalse();
    }
}
