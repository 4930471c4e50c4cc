package dev.muster.scheduler.core.preemption;

import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.cluster.ClusterState;
import dev.muster.scheduler.core.dra.Device;
import dev.muster.scheduler.core.dra.DeviceAllocation;
import dev.muster.scheduler.core.dra.DeviceClaim;
import dev.muster.scheduler.core.dra.DeviceClass;
import dev.muster.scheduler.core.dra.DeviceInventory;
import dev.muster.scheduler.core.dra.DeviceLedger;
import dev.muster.scheduler.core.dra.DeviceRequest;
import dev.muster.scheduler.core.dra.DeviceSlice;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.InterPodTerms;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PlacementConstraints;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.model.RunningGang;
import dev.muster.scheduler.core.placement.GangPlacement;
import dev.muster.scheduler.core.placement.GangTrial;
import dev.muster.scheduler.core.placement.NodeScoring;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.muster.scheduler.core.CoreFixtures.cpu;
import static dev.muster.scheduler.core.CoreFixtures.node;
import static dev.muster.scheduler.core.CoreFixtures.pending;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Preemption for devices asked through ResourceClaims: evicting a victim frees the devices of its claims that no
 * pod left uses, as the resourceclaim controller will once the victim is gone, and the preemptor waits until the
 * scheduler sees them freed.
 */
class VictimSearchDevicesTest {
    private static final String DRIVER = "gpu.example.com";
    private static final ResourceVector EIGHT_GPUS = cpu(1).plus(ResourceVector.of(
            Map.of(DeviceInventory.resourceName(DRIVER), 8L)));
    private static final Instant T0 = Instant.parse("2026-11-29T00:00:00Z");

    private final ClusterState state = new ClusterState();
    private final Map<GroupKey, RunningGang> running = new LinkedHashMap<>();
    private final List<DeviceClaim> claims = new ArrayList<>();

    @Test
    void aHigherPriorityGangTakesTheGpusOfTheClaimItsVictimAloneHeld() {
        state.putNode(node("node-0", 32));
        runOnNode0("low", 0, "low-0");
        PendingGang high = high();
        ClusterSnapshot snapshot = snapshot();

        Preemption preemption = search(snapshot).find(high, running, VictimBudget.UNLIMITED).orElseThrow();

        assertThat(preemption.evictedPods()).extracting(p -> p.pod().name()).containsExactly("low-0");
        assertThat(preemption.placement().placements()).singleElement()
                .satisfies(p -> assertThat(p.nodeName()).isEqualTo("node-0"));
        DeviceLedger devices = snapshot.devices();
        assertThat(devices.allocation("default/low-0-gpus")).isNull();
        assertThat(devices.allocation("default/high-0-gpus").devices()).hasSize(8);
        assertThat(devices.devicesInUse()).isEqualTo(8);
    }

    @Test
    void aClaimAPodOutsideTheVictimsSharesKeepsItsDevicesSoNothingIsEvicted() {
        state.putNode(node("node-0", 32));
        runOnNode0("low", 0, "low-0", "low-0", "keeper-0");
        // keeper-0 of a gang the preemptor may not take from uses the same claim.
        state.occupy("node-0", pod(GroupKey.podGroup("default", "keeper"), "keeper-0", 5000, cpu(1), "low-0"));
        PendingGang high = high();
        ClusterSnapshot snapshot = snapshot();

        Optional<Preemption> preemption = search(snapshot).find(high, running, VictimBudget.UNLIMITED);

        assertThat(preemption).isEmpty();
        assertThat(snapshot.devices().allocation("default/low-0-gpus")).isNotNull();
        assertThat(snapshot.devices().devicesInUse()).isEqualTo(8);
    }

    @Test
    void aSharedClaimIsFreedWhenEveryPodUsingItIsAVictim() {
        state.putNode(node("node-0", 32));
        runOnNode0("low", 0, "low-0", "low-0", "low-1");
        state.occupy("node-0", pod(GroupKey.podGroup("default", "low"), "low-1", 0, cpu(1), "low-0"));
        PendingGang high = high();

        ClusterSnapshot snapshot = snapshot();
        Preemption preemption = search(snapshot).find(high, running, VictimBudget.UNLIMITED).orElseThrow();

        assertThat(preemption.evictedPods()).extracting(p -> p.pod().name()).containsExactlyInAnyOrder("low-0", "low-1");
        assertThat(snapshot.devices().allocation("default/low-0-gpus")).isNull();
    }

    @Test
    void aSearchThatFindsNothingLeavesTheVictimsDevicesAllocated() {
        state.putNode(node("node-0", 32));
        runOnNode0("low", 0, "low-0");
        // Nine GPUs: evicting low-0 frees eight, so the trial with every unit evicted fails and is discarded.
        claims.add(claim("high-0-gpus", 9, null, List.of()));
        ClusterSnapshot snapshot = snapshot();
        GangInfo gang = new GangInfo(GroupKey.podGroup("default", "high"), 1, Map.of(), 1000, T0);
        PendingGang high = pending(gang, List.of(pod(gang.key(), "high-0", 1000, cpu(1), "high-0")));

        assertThat(search(snapshot).find(high, running, VictimBudget.UNLIMITED)).isEmpty();

        assertThat(snapshot.devices().allocation("default/low-0-gpus").devices()).hasSize(8);
        assertThat(snapshot.devices().allocation("default/high-0-gpus")).isNull();
    }

    @Test
    void thePromisedGangWaitsUntilTheGoneVictimsClaimIsNoLongerAllocated() {
        state.putNode(node("node-0", 32));
        runOnNode0("low", 0, "low-0");
        PendingGang high = high();
        Promises promises = new Promises();
        promises.add(search(snapshot()).find(high, running, VictimBudget.UNLIMITED).orElseThrow());
        PodInfo victim = state.snapshot().node("node-0").orElseThrow().snapshotPods().get(0);
        state.release("node-0", victim);

        // low-0 is gone, its claim still allocated: the preemptor's room is held, nothing placed.
        ClusterSnapshot claimStillAllocated = snapshot();
        GangPlacement waiting = promises.attempt(trial(claimStillAllocated), high, claimStillAllocated);

        assertThat(waiting.outcome()).isEqualTo(GangPlacement.Outcome.RESERVED);
        assertThat(waiting.message()).isEqualTo("the ResourceClaims of 1 pod(s) of podgroup default/low evicted for it are "
                + "still allocated; their room is held for it.");

        // The resourceclaim controller deleted the claim it made for low-0: the preemptor is placed.
        claims.removeIf(claim -> claim.name().equals("low-0-gpus"));
        ClusterSnapshot claimGone = snapshot();
        GangPlacement placed = promises.attempt(trial(claimGone), high, claimGone);

        assertThat(placed.placed()).isTrue();
        assertThat(claimGone.devices().allocation("default/high-0-gpus").devices()).hasSize(8);
    }

    /** A running gang of one pod on node-0 whose claim holds all 8 GPUs there, reserved for the pods named. */
    private void runOnNode0(String gangName, int priority, String podName, String... reservedFor) {
        List<String> consumers = reservedFor.length == 0 ? List.of(podName) : List.of(reservedFor);
        List<DeviceAllocation.AllocatedDevice> devices = new ArrayList<>();
        for (int g = 0; g < 8; g++) {
            devices.add(new DeviceAllocation.AllocatedDevice("gpus", DRIVER, "node-0", "gpu-" + g));
        }
        claims.add(claim(podName + "-gpus", 8, new DeviceAllocation(devices, "node-0"), consumers));
        GangInfo gang = new GangInfo(GroupKey.podGroup("default", gangName), 1, Map.of(), priority, T0);
        running.put(gang.key(), new RunningGang(gang, T0, 0));
        state.occupy("node-0", pod(gang.key(), podName, priority, EIGHT_GPUS, podName));
    }

    /** The preemptor: one pod whose claim, known from now on, asks for 8 GPUs. */
    private PendingGang high() {
        claims.add(claim("high-0-gpus", 8, null, List.of()));
        GangInfo gang = new GangInfo(GroupKey.podGroup("default", "high"), 1, Map.of(), 1000, T0);
        return pending(gang, List.of(pod(gang.key(), "high-0", 1000, EIGHT_GPUS, "high-0")));
    }

    private static DeviceClaim claim(String name, int count, DeviceAllocation allocation, List<String> reservedFor) {
        return new DeviceClaim("default", name, List.of(DeviceRequest.exactly("gpus", DRIVER, count)), List.of(),
                allocation, reservedFor);
    }

    private static PodInfo pod(GroupKey group, String name, int priority, ResourceVector requests, String claimOf) {
        return new PodInfo("default", name, group, "", priority, requests, PlacementConstraints.NONE, Map.of(),
                InterPodTerms.NONE, null, T0, List.of("default/" + claimOf + "-gpus"));
    }

    /** The cluster now, with node-0's 8 GPUs and the claims as they are. */
    private ClusterSnapshot snapshot() {
        List<Device> gpus = new ArrayList<>();
        for (int g = 0; g < 8; g++) {
            gpus.add(new Device(DRIVER, "node-0", "gpu-" + g, Map.of(), Map.of(), List.of(), false, false, false));
        }
        DeviceInventory inventory = new DeviceInventory(
                List.of(new DeviceSlice("node-0", DRIVER, "node-0", "node-0", false, List.of(), gpus)),
                List.of(new DeviceClass(DRIVER, List.of())));
        return state.snapshot().withDevices(new DeviceLedger(inventory, claims));
    }

    private static GangTrial trial(ClusterSnapshot snapshot) {
        return new GangTrial(snapshot, NodeScoring.MOST_ALLOCATED, null);
    }

    private static VictimSearch search(ClusterSnapshot snapshot) {
        return new VictimSearch(trial(snapshot));
    }
}
