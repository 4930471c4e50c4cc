package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.CoreFixtures;
import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.InterPodTerms;
import dev.muster.scheduler.core.model.PlacementConstraints;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.ResourceVector;

import static dev.muster.scheduler.core.CoreFixtures.cluster;
import static dev.muster.scheduler.core.CoreFixtures.cpu;
import static dev.muster.scheduler.core.CoreFixtures.gang;
import static dev.muster.scheduler.core.CoreFixtures.node;
import static dev.muster.scheduler.core.CoreFixtures.pending;
import static org.assertj.core.api.Assertions.assertThat;

import dev.muster.scheduler.core.dra.Device;
import dev.muster.scheduler.core.dra.DeviceAllocation;
import dev.muster.scheduler.core.dra.DeviceClaim;
import dev.muster.scheduler.core.dra.DeviceClass;
import dev.muster.scheduler.core.dra.DeviceConstraint;
import dev.muster.scheduler.core.dra.DeviceInventory;
import dev.muster.scheduler.core.dra.DeviceLedger;
import dev.muster.scheduler.core.dra.DeviceRequest;
import dev.muster.scheduler.core.dra.DeviceSlice;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Devices allocated inside the gang trial: all or nothing, members taking from one another. */
class GangTrialDevicesTest {
    private static final String DRIVER = "gpu.example.com";
    private static final String CLIQUE = DRIVER + "/clique";

    /** Nodes node-0..3 with 32 cores and 8 GPUs each; node-0 and node-1 on clique x, the others on y. */
    private static List<DeviceSlice> slices(int gpusPerNode) {
        List<DeviceSlice> slices = new ArrayList<>();
        for (int n = 0; n < 4; n++) {
            List<Device> devices = new ArrayList<>();
            for (int g = 0; g < gpusPerNode; g++) {
                devices.add(new Device(DRIVER, "node-" + n, "gpu-" + g,
                        Map.of(CLIQUE, n < 2 ? "x" : "y", DRIVER + "/model", "h100"), Map.of(), List.of(), false, false, false));
            }
            slices.add(new DeviceSlice("node-" + n, DRIVER, "node-" + n, "node-" + n, false, List.of(), devices));
        }
        return slices;
    }

    private static ClusterSnapshot snapshot(List<DeviceSlice> slices, List<DeviceClaim> claims) {
        DeviceLedger ledger = new DeviceLedger(new DeviceInventory(slices, List.of(new DeviceClass(DRIVER, List.of()))),
                claims);
        return cluster(node("node-0", 32), node("node-1", 32), node("node-2", 32), node("node-3", 32)).snapshot()
                .withDevices(ledger);
    }

    private static DeviceClaim gpus(String name, int count) {
        return new DeviceClaim("default", name, List.of(DeviceRequest.exactly("gpus", DRIVER, count)),
                List.of(new DeviceConstraint(List.of(), CLIQUE)));
    }

    private static List<PodInfo> members(GangInfo gang, int count, int gpusEach, List<DeviceClaim> claims) {
        List<PodInfo> pods = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            DeviceClaim claim = gpus(gang.key().name() + "-" + i + "-gpus", gpusEach);
            claims.add(claim);
            pods.add(new PodInfo("default", gang.key().name() + "-" + i, gang.key(), "worker", 0, cpu(1),
                    PlacementConstraints.NONE, Map.of(), InterPodTerms.NONE, null, null, List.of(claim.key())));
        }
        return pods;
    }

    @Test
    void aGangOfFourTakesEightGpusOfOneCliqueEachOnItsOwnNode() {
        List<DeviceClaim> claims = new ArrayList<>();
        GangInfo gang = gang("train", 4);
        List<PodInfo> pods = members(gang, 4, 8, claims);
        ClusterSnapshot snapshot = snapshot(slices(8), claims);

        GangPlacement result = new GangTrial(snapshot).attempt(pending(gang, pods));

        assertThat(result.placed()).isTrue();
        assertThat(result.placements()).extracting(PodPlacement::nodeName)
                .containsExactlyInAnyOrder("node-0", "node-1", "node-2", "node-3");
        for (PodPlacement placement : result.placements()) {
            DeviceAllocation allocation = snapshot.devices().allocation(placement.pod().deviceClaims().get(0));
            assertThat(allocation.nodeName()).isEqualTo(placement.nodeName());
            assertThat(allocation.devices()).hasSize(8)
                    .allSatisfy(device -> assertThat(device.pool()).isEqualTo(placement.nodeName()));
        }
        assertThat(snapshot.devices().devicesInUse()).isEqualTo(32);
    }

    @Test
    void aGangWhoseDevicesDoNotExistTakesNothingAndNamesTheClaim() {
        List<DeviceClaim> claims = new ArrayList<>();
        GangInfo gang = gang("train", 4);
        // 4 GPUs per node: the first member fits a node by cpu, but no node has 8 GPUs.
        List<PodInfo> pods = members(gang, 4, 8, claims);
        ClusterSnapshot snapshot = snapshot(slices(4), claims);

        GangPlacement result = new GangTrial(snapshot).attempt(pending(gang, pods));

        assertThat(result.placed()).isFalse();
        assertThat(snapshot.devices().devicesInUse()).isZero();
        assertThat(result.unschedulable().message()).isEqualTo("0/4 nodes are available: 4 node(s) cannot allocate "
                + "claim default/train-0-gpus: 8 device(s) of class gpu.example.com, one gpu.example.com/clique.");
    }

    @Test
    void nodesOfferTheirDevicesByCountAndAShortageNamesTheClaim() {
        List<DeviceClaim> claims = new ArrayList<>();
        GangInfo gang = gang("train", 2);
        ResourceVector nine = cpu(1).plus(ResourceVector.of(Map.of(DeviceInventory.resourceName(DRIVER), 9L)));
        List<PodInfo> pods = members(gang, 2, 9, claims).stream().map(pod -> pod.withRequests(nine)).toList();
        ClusterSnapshot snapshot = snapshot(slices(8), claims);

        assertThat(snapshot.nodes()).allSatisfy(node -> assertThat(node.free(DeviceInventory.resourceName(DRIVER)))
                .isEqualTo(8));
        GangPlacement result = new GangTrial(snapshot).attempt(pending(gang, pods));

        assertThat(result.placed()).isFalse();
        assertThat(result.unschedulable().message()).isEqualTo("0/4 nodes are available: 4 Insufficient "
                + "deviceclass.resource.kubernetes.io/gpu.example.com (claim default/train-0-gpus: 9 device(s) of class "
                + "gpu.example.com, one gpu.example.com/clique).");
    }

    @Test
    void aShortageSaysWhenDevicesOfTheClassAreInSlicesWithPerDeviceNodeSelection() {
        List<DeviceClaim> claims = new ArrayList<>();
        GangInfo gang = gang("train", 1);
        ResourceVector nine = cpu(1).plus(ResourceVector.of(Map.of(DeviceInventory.resourceName(DRIVER), 9L)));
        List<PodInfo> pods = members(gang, 1, 9, claims).stream().map(pod -> pod.withRequests(nine)).toList();
        List<DeviceSlice> slices = new ArrayList<>(slices(8));
        slices.add(new DeviceSlice("fabric", DRIVER, "fabric", null, false, List.of(), List.of(new Device(DRIVER, "fabric",
                "gpu-0", Map.of(CLIQUE, "x"), Map.of(), List.of(), false, false, false)), true));

        GangPlacement result = new GangTrial(snapshot(slices, claims)).attempt(pending(gang, pods));

        assertThat(result.placed()).isFalse();
        assertThat(result.unschedulable().message()).isEqualTo("0/4 nodes are available: 4 Insufficient "
                + "deviceclass.resource.kubernetes.io/gpu.example.com (claim default/train-0-gpus: 9 device(s) of class "
                + "gpu.example.com, one gpu.example.com/clique; devices left out on every node: perDeviceNodeSelection "
                + "(devices that each name their node), which Muster does not allocate).");
    }

    @Test
    void aDiscardedTrialGivesItsMembersDevicesBack() {
        List<DeviceClaim> claims = new ArrayList<>();
        GangInfo gang = gang("train", 5);
        // Five members of 8 GPUs, four nodes of 8: four members take every GPU, the fifth finds none.
        List<PodInfo> pods = members(gang, 5, 8, claims);
        ClusterSnapshot snapshot = snapshot(slices(8), claims);
        GangTrial trial = new GangTrial(snapshot);

        GangPlacement result = trial.attempt(pending(gang, pods));

        assertThat(result.placed()).isFalse();
        assertThat(snapshot.devices().devicesInUse()).isZero();
        GangInfo next = gang("next", 4);
        List<DeviceClaim> nextClaims = new ArrayList<>();
        List<PodInfo> nextPods = members(next, 4, 8, nextClaims);
        nextClaims.forEach(snapshot.devices()::addClaim);
        assertThat(trial.attempt(pending(next, nextPods)).placed()).isTrue();
    }

    @Test
    void membersSharingAClaimLandWhereItsDevicesAre() {
        DeviceClaim shared = gpus("shared", 2);
        ClusterSnapshot snapshot = snapshot(slices(8), List.of(shared));

        // 20 cores each: one member per node, yet all need the node that holds the shared claim's devices.
        GangInfo big = gang("big", 3);
        assertThat(new GangTrial(snapshot).attempt(pending(big, sharing(big, shared, 3, 20))).placed()).isFalse();
        assertThat(snapshot.devices().devicesInUse()).isZero();

        GangInfo small = gang("small", 2);
        GangPlacement result = new GangTrial(snapshot).attempt(pending(small, sharing(small, shared, 2, 10)));
        assertThat(result.placed()).isTrue();
        String node = snapshot.devices().allocation("default/shared").nodeName();
        assertThat(result.placements()).extracting(PodPlacement::nodeName).containsExactly(node, node);
        assertThat(snapshot.devices().devicesInUse()).isEqualTo(2);
    }

    private static List<PodInfo> sharing(GangInfo gang, DeviceClaim claim, int count, long cores) {
        List<PodInfo> pods = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            pods.add(new PodInfo("default", gang.key().name() + "-" + i, gang.key(), "worker", 0, cpu(cores),
                    PlacementConstraints.NONE, Map.of(), InterPodTerms.NONE, null, null, List.of(claim.key())));
        }
        return pods;
    }
}
