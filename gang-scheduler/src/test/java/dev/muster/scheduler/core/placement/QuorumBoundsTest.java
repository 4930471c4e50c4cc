package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.CoreFixtures;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PodInfo;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.muster.scheduler.core.CoreFixtures.cpu;
import static dev.muster.scheduler.core.CoreFixtures.gang;
import static dev.muster.scheduler.core.CoreFixtures.pods;
import static org.assertj.core.api.Assertions.assertThat;

/** What a gang's quorum still needs, after its bound pods, and from when a failed gang is near it. */
class QuorumBoundsTest {

    @Test
    void boundPodsCountTowardTheQuorumAndTheNearThreshold() {
        GangInfo gang = gang("g", 10);
        PendingGang work = new PendingGang(gang, pods(gang, "w", 10, cpu(1)), 2, Map.of("w", 2));

        assertThat(QuorumBounds.of(work, 10)).satisfies(q -> {
            assertThat(q.needed()).isEqualTo(8);
            // 90% of minMember, rounded up, is 9 pods; 2 are bound.
            assertThat(q.nearFrom()).isEqualTo(7);
        });
        assertThat(QuorumBounds.of(work, 15).nearFrom()).as("85% of 10 rounds up to 9").isEqualTo(7);
        assertThat(QuorumBounds.of(work, 100).nearFrom()).isZero();
        assertThat(QuorumBounds.of(work, -1).nearFrom()).as("not measured").isEqualTo(8);
        assertThat(QuorumBounds.of(work, 10).quorumOnly().nearFrom()).isEqualTo(8);
    }

    @Test
    void aTaskWhoseMinimumItsBoundPodsMeetNeedsNothing() {
        GangInfo gang = gang("g", 4, Map.of("ps", 1, "worker", 3));
        List<PodInfo> pending = new ArrayList<>(pods(gang, "worker", 2, cpu(1)));
        PendingGang work = new PendingGang(gang, pending, 2, Map.of("ps", 1, "worker", 1));

        QuorumBounds quorum = QuorumBounds.of(work, -1);

        assertThat(quorum.needed()).isEqualTo(2);
        assertThat(quorum.tasks()).containsExactly(new QuorumBounds.TaskNeed("worker", 3, 2, 2));
        assertThat(quorum.missingPods(work)).isNull();
    }

    @Test
    void tooFewPendingPodsForMinMemberOrATaskMinimumAreMissingPods() {
        GangInfo gang = gang("g", 4, Map.of("worker", 3));
        PendingGang tooFew = new PendingGang(gang, pods(gang, "worker", 3, cpu(1)), 0, Map.of());
        List<PodInfo> mostlyPs = new ArrayList<>(pods(gang, "ps", 3, cpu(1)));
        mostlyPs.addAll(pods(gang, "worker", 2, cpu(1)));
        PendingGang taskShort = new PendingGang(gang, mostlyPs, 0, Map.of());

        assertThat(QuorumBounds.of(tooFew, -1).missingPods(tooFew))
                .isEqualTo("Waiting for pods: the group has fewer than minMember 4.");
        assertThat(QuorumBounds.of(taskShort, -1).missingPods(taskShort))
                .isEqualTo("Waiting for pods: task worker has fewer than minTaskMember 3.");
    }

    @Test
    void expectedPodsCompleteEachTaskMinimumFirstThenMinMemberInCreationOrder() {
        GangInfo gang = gang("g", 4, Map.of("worker", 2));
        List<PodInfo> expected = new ArrayList<>(pods(gang, "launcher", 2, cpu(1)));
        expected.addAll(pods(gang, "worker", 3, cpu(1)));
        PendingGang work = new PendingGang(gang, List.of(), 0, Map.of(), null, expected);

        assertThat(QuorumBounds.withExpected(work)).extracting(PodInfo::name)
                .containsExactly("g-worker-0", "g-worker-1", "g-launcher-0", "g-launcher-1");
        PendingGang tooFew = new PendingGang(gang, List.of(), 0, Map.of(), null, expected.subList(0, 3));
        assertThat(QuorumBounds.withExpected(tooFew)).isNull();
    }

    /**
     * An elastic gang (Volcano: minMember below the sum of minTaskMember) reaches the core with no task
     * minimums: any minMember pods make its quorum, whichever task they are of.
     */
    @Test
    void aGangWithoutTaskMinimumsNeedsOnlyMinMemberOfAnyTask() {
        GangInfo gang = gang("g", 3, Map.of());
        List<PodInfo> expected = new ArrayList<>(pods(gang, "ps", 1, cpu(1)));
        expected.addAll(pods(gang, "worker", 6, cpu(1)));
        PendingGang work = new PendingGang(gang, List.of(), 0, Map.of(), null, expected);

        assertThat(QuorumBounds.of(work, -1).tasks()).isEmpty();
        assertThat(QuorumBounds.withExpected(work)).extracting(PodInfo::name)
                .containsExactly("g-ps-0", "g-worker-0", "g-worker-1");
    }
}
