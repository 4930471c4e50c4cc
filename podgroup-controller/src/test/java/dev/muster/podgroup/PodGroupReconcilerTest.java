package dev.muster.podgroup;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.api.scheduling.v1alpha1.PodGroupFixtures;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import dev.muster.support.controller.ObjectKey;
import dev.muster.support.controller.ReconcileResult;
import dev.muster.support.event.EventRecorder;
import dev.muster.gang.GangVerdict;
import dev.muster.gang.GangVerdictBoard;
import dev.muster.support.status.FirstWriteWait;
import dev.muster.support.status.StatusRecorder;
import dev.muster.support.status.StatusWriter;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.impl.cache.CacheImpl;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.argThat;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

/** The reconciler's use of its cache, writer and recorder; the decisions themselves are tested elsewhere. */
class PodGroupReconcilerTest {
    private static final ObjectKey KEY = new ObjectKey("ns", "gang");
    private static final PodGroupStatusCalculator CALCULATOR = new PodGroupStatusCalculator();
    private static final Duration GRACE = Duration.ofSeconds(30);
    private static final Duration COUNTER_INTERVAL = Duration.ofSeconds(1);

    private final CacheImpl<PodGroup> groupStore = new CacheImpl<>();
    private final CacheImpl<Pod> podStore = new CacheImpl<>();
    private final CacheImpl<Node> nodeStore = new CacheImpl<>();
    private final AtomicBoolean podsSynced = new AtomicBoolean(true);
    private final AtomicBoolean nodesSynced = new AtomicBoolean(true);
    private final PodGroupCache cache = new PodGroupCache(groupStore, podStore, nodeStore,
            () -> podsSynced.get() && nodesSynced.get());
    private final StatusWriter statusWriter = mock(StatusWriter.class);
    private final EventRecorder events = mock(EventRecorder.class);
    private final ReplacementWaits replacementWaits = new ReplacementWaits(GRACE);
    private final FirstWriteWait firstWrites = new FirstWriteWait(PodGroupReconciler.FIRST_VERDICT_WAIT);
    private final StatusRecorder<PodGroupStatus> recorder =
            new StatusRecorder<>(statusWriter, events, COUNTER_INTERVAL, PodGroupCounters::countersOnly);
    private PodGroupReconciler reconciler;

    @BeforeEach
    void wire() {
        podStore.addIndexers(PodsByGroupIndex.indexers());
        nodeStore.put(new NodeBuilder().withNewMetadata().withName("node-0").endMetadata().build());
        reconciler = reconcilerAt(Instant.EPOCH);
    }

    @Test
    void waitsForBothCachesBeforeDecidingAnything() {
        podsSynced.set(false);

        assertThat(reconciler.reconcile(KEY)).isEqualTo(ReconcileResult.after(PodGroupReconciler.CACHE_SYNC_RETRY));
        verifyNoInteractions(statusWriter);
    }

    @Test
    void waitsForTheNodeCacheSinceWithoutItEveryBoundPodLooksLost() {
        nodesSynced.set(false);

        assertThat(reconciler.reconcile(KEY)).isEqualTo(ReconcileResult.after(PodGroupReconciler.CACHE_SYNC_RETRY));
        verifyNoInteractions(statusWriter);
    }

    @Test
    void aRunningGangShortOfMembersIsLookedAtAgainWhenTheGracePeriodEndsAndThenIsUnknown() {
        groupStore.put(group(PodGroupPhase.Running));
        members(runningPod("a"));

        assertThat(reconciler.reconcile(KEY)).isEqualTo(ReconcileResult.after(GRACE));
        assertThat(reconcilerAt(Instant.EPOCH.plusSeconds(10)).reconcile(KEY)).isEqualTo(ReconcileResult.after(GRACE.minusSeconds(10)));
        verify(statusWriter, never()).writeIfChanged(any(PodGroup.class),
                argThat((PodGroupStatus s) -> s.getPhase() != PodGroupPhase.Running));

        when(statusWriter.writeIfChanged(any(PodGroup.class), any(PodGroupStatus.class))).thenReturn(true);
        reconcilerAt(Instant.EPOCH.plus(GRACE)).reconcile(KEY);

        verify(statusWriter).writeIfChanged(any(PodGroup.class), argThat((PodGroupStatus s) -> s.getPhase() == PodGroupPhase.Unknown));
        verify(events).record(any(), eq(EventRecorder.WARNING), eq("Unknown"), argThat((String m) -> m.endsWith(
                "PodDeleted: 1 of minMember 2 pods running; the others were deleted and not replaced within the grace period")));
    }

    @Test
    void aGangWholeAgainStopsItsGraceClock() {
        groupStore.put(group(PodGroupPhase.Running));
        members(runningPod("a"));
        reconciler.reconcile(KEY);
        members(runningPod("a"), runningPod("b"));
        reconcilerAt(Instant.EPOCH.plusSeconds(5)).reconcile(KEY);

        assertThat(replacementWaits.overdue(KEY, Instant.EPOCH.plus(GRACE))).isFalse();
    }

    @Test
    void aCounterOnlyChangeSoonAfterAWriteIsHeldBackUntilTheIntervalEnds() {
        groupStore.put(group(PodGroupPhase.Pending));
        members(runningPod("a"), runningPod("b"));
        when(statusWriter.writeIfChanged(any(PodGroup.class), any(PodGroupStatus.class))).thenReturn(true);
        reconciler.reconcile(KEY);
        PodGroup running = group(PodGroupPhase.Running);
        running.getStatus().setRunning(2);
        running.getStatus().setRunningQuorum(2);
        groupStore.put(running);
        members(runningPod("a"), runningPod("b"), runningPod("c"));

        assertThat(reconcilerAt(Instant.EPOCH.plusMillis(300)).reconcile(KEY)).isEqualTo(ReconcileResult.after(Duration.ofMillis(700)));
        verify(statusWriter).writeIfChanged(any(PodGroup.class), any(PodGroupStatus.class));

        reconcilerAt(Instant.EPOCH.plus(COUNTER_INTERVAL)).reconcile(KEY);
        verify(statusWriter).writeIfChanged(any(PodGroup.class), argThat((PodGroupStatus s) -> s.getRunning() == 3));
    }

    @Test
    void aNewGroupWaitsForTheSchedulersFirstVerdictAndIsWrittenInqueueDirectlyWhenItIsAdmitted() {
        groupStore.put(newGroup());
        GangVerdictBoard board = new GangVerdictBoard();
        when(statusWriter.writeIfChanged(any(PodGroup.class), any(PodGroupStatus.class))).thenReturn(true);

        assertThat(reconcilerAt(Instant.EPOCH, board).reconcile(KEY)).isEqualTo(ReconcileResult.after(Duration.ofSeconds(1)));
        assertThat(reconcilerAt(Instant.EPOCH.plusMillis(200), board).reconcile(KEY))
                .isEqualTo(ReconcileResult.after(Duration.ofMillis(800)));
        verifyNoInteractions(statusWriter);

        board.publish(new GangVerdict("ns", "gang", GangVerdict.Outcome.ADMITTED, PodGroupCondition.REASON_ADMITTED,
                "fits", "t1", Instant.EPOCH.plusMillis(250)));
        reconcilerAt(Instant.EPOCH.plusMillis(300), board).reconcile(KEY);

        verify(statusWriter).writeIfChanged(any(PodGroup.class), argThat((PodGroupStatus s) -> s.getPhase() == PodGroupPhase.Inqueue));
        verify(statusWriter, never()).writeIfChanged(any(PodGroup.class), argThat((PodGroupStatus s) -> s.getPhase() == PodGroupPhase.Pending));
    }

    @Test
    void aNewGroupTheSchedulerHasNotDecidedOnIsWrittenPendingASecondAfterItWasFirstSeen() {
        groupStore.put(newGroup());
        when(statusWriter.writeIfChanged(any(PodGroup.class), any(PodGroupStatus.class))).thenReturn(true);
        reconcilerAt(Instant.EPOCH).reconcile(KEY);

        assertThat(reconcilerAt(Instant.EPOCH.plus(PodGroupReconciler.FIRST_VERDICT_WAIT)).reconcile(KEY))
                .isEqualTo(ReconcileResult.done());

        verify(statusWriter).writeIfChanged(any(PodGroup.class), argThat((PodGroupStatus s) -> s.getPhase() == PodGroupPhase.Pending));
    }

    @Test
    void leavesAGroupThatIsGoneAlone() {
        assertThat(reconciler.reconcile(KEY)).isEqualTo(ReconcileResult.done());
        verifyNoInteractions(statusWriter, events);
    }

    @Test
    void recordsAnEventWhenItWritesAPhaseChange() {
        groupStore.put(group(PodGroupPhase.Pending));
        members(runningPod("a"), runningPod("b"));
        when(statusWriter.writeIfChanged(any(PodGroup.class), any(PodGroupStatus.class))).thenReturn(true);

        reconciler.reconcile(KEY);

        verify(statusWriter).writeIfChanged(any(PodGroup.class),
                argThat((PodGroupStatus s) -> s.getPhase() == PodGroupPhase.Running && s.getRunning() == 2));
        verify(events).record(any(), eq(EventRecorder.NORMAL), eq("Running"), anyString());
    }

    @Test
    void aJobsOwnGangLeavesItsNormalPhasesToTheJobsEvents() {
        PodGroup owned = group(PodGroupPhase.Pending);
        owned.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder().withApiVersion(Job.API_VERSION)
                .withKind(Job.KIND).withName("gang").withUid("job-uid").withController(true).build()));
        groupStore.put(owned);
        members(runningPod("a"), runningPod("b"));
        when(statusWriter.writeIfChanged(any(PodGroup.class), any(PodGroupStatus.class))).thenReturn(true);

        reconciler.reconcile(KEY);

        verify(statusWriter).writeIfChanged(any(PodGroup.class),
                argThat((PodGroupStatus s) -> s.getPhase() == PodGroupPhase.Running));
        verify(events, never()).record(any(), anyString(), anyString(), anyString());
    }

    @Test
    void recordsNoEventWhenNothingWasWritten() {
        groupStore.put(group(PodGroupPhase.Pending));
        members(runningPod("a"), runningPod("b"));

        reconciler.reconcile(KEY);

        verify(events, never()).record(any(), anyString(), anyString(), anyString());
    }

    @Test
    void aWriteLostToANewerVersionIsLeftToTheControllerAndAnnouncesNothing() {
        groupStore.put(group(PodGroupPhase.Pending));
        members(runningPod("a"), runningPod("b"));
        when(statusWriter.writeIfChanged(any(PodGroup.class), any(PodGroupStatus.class)))
                .thenThrow(new KubernetesClientException("the object has been modified", 409, null));

        assertThatThrownBy(() -> reconciler.reconcile(KEY))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
        verifyNoInteractions(events);
    }

    /** A reconciler whose clock stands at {@code now}, sharing this test's caches, clocks and pacing. */
    private PodGroupReconciler reconcilerAt(Instant now) {
        return reconcilerAt(now, new GangVerdictBoard());
    }

    private PodGroupReconciler reconcilerAt(Instant now, GangVerdictBoard board) {
        return new PodGroupReconciler(cache, board, CALCULATOR, replacementWaits, firstWrites, recorder,
                Clock.fixed(now, ZoneOffset.UTC));
    }

    /** A group as the API server has just created it: no status. */
    private static PodGroup newGroup() {
        PodGroup group = PodGroupFixtures.podGroup("ns", "gang", 2);
        group.setStatus(null);
        return group;
    }

    /** Makes these the group's pods in the cache, and no others. */
    private void members(Pod... members) {
        podStore.list().forEach(podStore::remove);
        List.of(members).forEach(podStore::put);
    }

    private static PodGroup group(PodGroupPhase phase) {
        var group = PodGroupFixtures.podGroup("ns", "gang", 2);
        var status = new PodGroupStatus();
        status.setPhase(phase);
        group.setStatus(status);
        return group;
    }

    private static Pod runningPod(String name) {
        return new PodBuilder().withNewMetadata().withNamespace("ns").withName(name)
                .addToLabels(MusterLabels.POD_GROUP, "gang").endMetadata()
                .withNewSpec().withNodeName("node-0").endSpec()
                .withNewStatus().withPhase("Running").endStatus().build();
    }
}
