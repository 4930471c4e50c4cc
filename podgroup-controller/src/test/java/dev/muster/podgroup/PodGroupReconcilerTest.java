package dev.muster.podgroup;

import dev.muster.api.MusterLabels;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import dev.muster.support.controller.ObjectKey;
import dev.muster.support.controller.ReconcileResult;
import dev.muster.support.event.EventRecorder;
import dev.muster.support.gang.GangVerdictBoard;
import dev.muster.support.status.CounterWritePacer;
import dev.muster.support.status.StatusWriter;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

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

/** The reconciler's use of caches, writer and recorder; the decisions themselves are tested elsewhere. */
class PodGroupReconcilerTest {
    private static final ObjectKey KEY = new ObjectKey("ns", "gang");
    private static final PodGroupStatusCalculator CALCULATOR = new PodGroupStatusCalculator();
    private static final Duration GRACE = Duration.ofSeconds(30);
    private static final Duration COUNTER_INTERVAL = Duration.ofSeconds(1);

    @SuppressWarnings("unchecked")
    private final SharedIndexInformer<PodGroup> groups = mock(SharedIndexInformer.class);
    @SuppressWarnings("unchecked")
    private final SharedIndexInformer<Pod> pods = mock(SharedIndexInformer.class);
    @SuppressWarnings("unchecked")
    private final SharedIndexInformer<Node> nodes = mock(SharedIndexInformer.class);
    @SuppressWarnings("unchecked")
    private final Indexer<PodGroup> groupStore = mock(Indexer.class);
    @SuppressWarnings("unchecked")
    private final Indexer<Node> nodeStore = mock(Indexer.class);
    @SuppressWarnings("unchecked")
    private final Indexer<Pod> podStore = mock(Indexer.class);
    private final StatusWriter statusWriter = mock(StatusWriter.class);
    private final EventRecorder events = mock(EventRecorder.class);
    private final ReplacementWaits replacementWaits = new ReplacementWaits(GRACE);
    private final CounterWritePacer<PodGroupStatus> pacer =
            new CounterWritePacer<>(COUNTER_INTERVAL, PodGroupCounters::countersOnly);
    private PodGroupReconciler reconciler;

    @BeforeEach
    void wire() {
        when(groups.getStore()).thenReturn(groupStore);
        when(pods.getIndexer()).thenReturn(podStore);
        when(nodes.getStore()).thenReturn(nodeStore);
        when(nodeStore.getByKey("node-0")).thenReturn(new NodeBuilder().withNewMetadata().withName("node-0").endMetadata().build());
        when(groups.hasSynced()).thenReturn(true);
        when(pods.hasSynced()).thenReturn(true);
        when(nodes.hasSynced()).thenReturn(true);
        reconciler = reconcilerAt(Instant.EPOCH);
    }

    @Test
    void waitsForBothCachesBeforeDecidingAnything() {
        when(pods.hasSynced()).thenReturn(false);

        assertThat(reconciler.reconcile(KEY)).isEqualTo(ReconcileResult.after(PodGroupReconciler.CACHE_SYNC_RETRY));
        verifyNoInteractions(statusWriter);
    }

    @Test
    void waitsForTheNodeCacheSinceWithoutItEveryBoundPodLooksLost() {
        when(nodes.hasSynced()).thenReturn(false);

        assertThat(reconciler.reconcile(KEY)).isEqualTo(ReconcileResult.after(PodGroupReconciler.CACHE_SYNC_RETRY));
        verifyNoInteractions(statusWriter);
    }

    @Test
    void aRunningGangShortOfMembersIsLookedAtAgainWhenTheGracePeriodEndsAndThenIsUnknown() {
        when(groupStore.getByKey("ns/gang")).thenReturn(group(PodGroupPhase.Running));
        when(podStore.byIndex(PodsByGroupIndex.NAME, "ns/gang")).thenReturn(List.of(runningPod("a")));

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
        when(groupStore.getByKey("ns/gang")).thenReturn(group(PodGroupPhase.Running));
        when(podStore.byIndex(PodsByGroupIndex.NAME, "ns/gang")).thenReturn(List.of(runningPod("a")));
        reconciler.reconcile(KEY);
        when(podStore.byIndex(PodsByGroupIndex.NAME, "ns/gang")).thenReturn(List.of(runningPod("a"), runningPod("b")));
        reconcilerAt(Instant.EPOCH.plusSeconds(5)).reconcile(KEY);

        assertThat(replacementWaits.overdue(KEY, Instant.EPOCH.plus(GRACE))).isFalse();
    }

    @Test
    void aCounterOnlyChangeSoonAfterAWriteIsHeldBackUntilTheIntervalEnds() {
        when(groupStore.getByKey("ns/gang")).thenReturn(group(PodGroupPhase.Pending));
        when(podStore.byIndex(PodsByGroupIndex.NAME, "ns/gang")).thenReturn(List.of(runningPod("a"), runningPod("b")));
        when(statusWriter.writeIfChanged(any(PodGroup.class), any(PodGroupStatus.class))).thenReturn(true);
        reconciler.reconcile(KEY);
        PodGroup running = group(PodGroupPhase.Running);
        running.getStatus().setRunning(2);
        running.getStatus().setRunningQuorum(2);
        when(groupStore.getByKey("ns/gang")).thenReturn(running);
        when(podStore.byIndex(PodsByGroupIndex.NAME, "ns/gang"))
                .thenReturn(List.of(runningPod("a"), runningPod("b"), runningPod("c")));

        assertThat(reconcilerAt(Instant.EPOCH.plusMillis(300)).reconcile(KEY)).isEqualTo(ReconcileResult.after(Duration.ofMillis(700)));
        verify(statusWriter).writeIfChanged(any(PodGroup.class), any(PodGroupStatus.class));

        reconcilerAt(Instant.EPOCH.plus(COUNTER_INTERVAL)).reconcile(KEY);
        verify(statusWriter).writeIfChanged(any(PodGroup.class), argThat((PodGroupStatus s) -> s.getRunning() == 3));
    }

    @Test
    void leavesAGroupThatIsGoneAlone() {
        assertThat(reconciler.reconcile(KEY)).isEqualTo(ReconcileResult.done());
        verifyNoInteractions(statusWriter, events);
    }

    @Test
    void recordsAnEventWhenItWritesAPhaseChange() {
        when(groupStore.getByKey("ns/gang")).thenReturn(group(PodGroupPhase.Pending));
        when(podStore.byIndex(PodsByGroupIndex.NAME, "ns/gang")).thenReturn(List.of(runningPod("a"), runningPod("b")));
        when(statusWriter.writeIfChanged(any(PodGroup.class), any(PodGroupStatus.class))).thenReturn(true);

        reconciler.reconcile(KEY);

        verify(statusWriter).writeIfChanged(any(PodGroup.class),
                argThat((PodGroupStatus s) -> s.getPhase() == PodGroupPhase.Running && s.getRunning() == 2));
        verify(events).record(any(), eq(EventRecorder.NORMAL), eq("Running"), anyString());
    }

    @Test
    void recordsNoEventWhenNothingWasWritten() {
        when(groupStore.getByKey("ns/gang")).thenReturn(group(PodGroupPhase.Pending));
        when(podStore.byIndex(PodsByGroupIndex.NAME, "ns/gang")).thenReturn(List.of(runningPod("a"), runningPod("b")));

        reconciler.reconcile(KEY);

        verify(events, never()).record(any(), anyString(), anyString(), anyString());
    }

    @Test
    void aWriteLostToANewerVersionIsLeftToTheControllerAndAnnouncesNothing() {
        when(groupStore.getByKey("ns/gang")).thenReturn(group(PodGroupPhase.Pending));
        when(podStore.byIndex(PodsByGroupIndex.NAME, "ns/gang")).thenReturn(List.of(runningPod("a"), runningPod("b")));
        when(statusWriter.writeIfChanged(any(PodGroup.class), any(PodGroupStatus.class)))
                .thenThrow(new KubernetesClientException("the object has been modified", 409, null));

        assertThatThrownBy(() -> reconciler.reconcile(KEY))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
        verifyNoInteractions(events);
    }

    /** A reconciler whose clock stands at {@code now}, sharing this test's caches, clocks and pacing. */
    private PodGroupReconciler reconcilerAt(Instant now) {
        return new PodGroupReconciler(groups, pods, nodes, new GangVerdictBoard(), CALCULATOR, replacementWaits, pacer,
                statusWriter, events, Clock.fixed(now, ZoneOffset.UTC));
    }

    private static PodGroup group(PodGroupPhase phase) {
        var group = new PodGroup();
        group.getMetadata().setNamespace("ns");
        group.getMetadata().setName("gang");
        group.getSpec().setMinMember(2);
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
