package dev.muster.scheduler.core.preemption;

import dev.muster.scheduler.core.CoreFixtures;
import dev.muster.scheduler.core.QueueFixtures;
import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.cluster.ClusterState;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.RunningGang;
import dev.muster.scheduler.core.placement.GangTrial;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static dev.muster.scheduler.core.QueueFixtures.GPU;
import static dev.muster.scheduler.core.QueueFixtures.T0;
import static dev.muster.scheduler.core.QueueFixtures.gang;
import static dev.muster.scheduler.core.QueueFixtures.gpuCluster;
import static dev.muster.scheduler.core.QueueFixtures.gpuPods;
import static org.assertj.core.api.Assertions.assertThat;

/** Reservations found by releasing running gangs on the cycle's own trial runner. */
class BackfillReservationTest {
    private final ClusterState state = gpuCluster(10);
    private final Map<GroupKey, RunningGang> running = new HashMap<>();

    /** A running gang of one 8-GPU pod on the node, ending {@code endsAfter} seconds after T0 (or never). */
    private void runUntil(String node, Long endsAfter) {
        GangInfo info = gang("run-" + node, "q", 1, 0, 0, endsAfter == null ? null : Duration.ofSeconds(endsAfter));
        state.occupy(node, gpuPods(info, 1, 8).get(0));
        running.put(info.key(), new RunningGang(info, T0, 0));
    }

    private static PendingGang head(int pods) {
        GangInfo info = gang("head", "q", pods, 0, 0, null);
        return CoreFixtures.pending(info, gpuPods(info, pods, 8));
    }

    @Test
    void theStartIsTheEarliestEndThatMakesRoomAndTheTrialRunnerIsLeftAsItWas() {
        for (int i = 1; i <= 10; i++) {
            runUntil(String.format("n%02d", i), 10L * (11 - i));
        }
        ClusterSnapshot snapshot = state.snapshot();
        GangTrial trial = new GangTrial(snapshot);
        BackfillReservation backfill = new BackfillReservation(snapshot, running, T0);

        BackfillReservation.Reservation reservation = backfill.reserve(head(7), trial);

        // n10 ends first (10 s), n04 seventh (70 s).
        assertThat(reservation.start()).isEqualTo(T0.plusSeconds(70));
        assertThat(reservation.nodes()).containsExactlyInAnyOrder("n04", "n05", "n06", "n07", "n08", "n09", "n10");
        snapshot.nodes().forEach(node -> assertThat(node.free(GPU)).isZero());
        assertThat(trial.probe(head(1), false).placed()).isFalse();
    }

    @Test
    void aHeadThatNeedsRoomOfAGangWithoutMaxRuntimeGetsNoReservation() {
        runUntil("n01", 30L);
        runUntil("n02", null);
        for (int i = 3; i <= 10; i++) {
            runUntil(String.format("n%02d", i), null);
        }
        ClusterSnapshot snapshot = state.snapshot();
        GangTrial trial = new GangTrial(snapshot);
        BackfillReservation backfill = new BackfillReservation(snapshot, running, T0);

        assertThat(backfill.reserve(head(2), trial)).isNull();
        assertThat(backfill.reserve(head(1), trial).start()).isEqualTo(T0.plusSeconds(30));
        assertThat(snapshot.nodes()).allSatisfy(node -> assertThat(node.free(GPU)).isZero());
    }
}
