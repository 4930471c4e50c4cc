package dev.muster.scheduler.autoscaling;

import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.placement.GangPlacement;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class CapacityNeedsTest {
    private static final GroupKey KEY = GroupKey.podGroup("team-a", "train");

    @Test
    void theQuorumTakesEachTasksMinimumThenPodsInCreationOrder() {
        GangInfo gang = new GangInfo(KEY, 4, Map.of("ps", 1), 0, Instant.EPOCH);
        List<PodInfo> expected = pods("worker", 4);
        expected.addAll(pods("ps", 2));

        assertThat(CapacityNeeds.quorum(gang, expected)).containsExactly(Map.entry("worker", 3), Map.entry("ps", 1));
    }

    @Test
    void onlyAGangWaitingForAdmissionAndShortOfRoomNeedsCapacity() {
        GangInfo gang = new GangInfo(KEY, 2, Map.of(), 0, Instant.EPOCH);
        PendingGang waiting = new PendingGang(gang, List.of(), 0, Map.of(), null, pods("worker", 2));
        GangPlacement shortOfRoom = new GangPlacement(gang, GangPlacement.Outcome.NOT_ENOUGH_RESOURCES, List.of(),
                List.of(), null, "0/2 nodes are available");
        GangPlacement admitted = new GangPlacement(gang, GangPlacement.Outcome.ADMITTED, List.of(), List.of(), null,
                "admitted");

        assertThat(CapacityNeeds.of(List.of(waiting), List.of(shortOfRoom), g -> "some-class"))
                .containsExactly(new CapacityNeed(KEY, "some-class", Map.of("worker", 2)));
        assertThat(CapacityNeeds.of(List.of(waiting), List.of(admitted), g -> "some-class")).isEmpty();
        assertThat(CapacityNeeds.admitted(List.of(admitted))).containsExactly(KEY);
        // A gang with no result (its queue held it) needs nothing.
        assertThat(CapacityNeeds.of(List.of(waiting), List.of(), g -> "some-class")).isEmpty();
    }

    private static List<PodInfo> pods(String task, int count) {
        List<PodInfo> pods = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            pods.add(new PodInfo("team-a", "train-" + task + "-" + i, KEY, task, 0, ResourceVector.ZERO, Map.of()));
        }
        return pods;
    }
}
