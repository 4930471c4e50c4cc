package dev.muster.podgroup;

import dev.muster.api.MusterLabels;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import dev.muster.support.controller.ObjectKey;
import dev.muster.support.controller.ReconcileResult;
import dev.muster.support.event.EventRecorder;
import dev.muster.support.gang.GangVerdictBoard;
import dev.muster.support.status.StatusWriter;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
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

    @SuppressWarnings("unchecked")
    private final SharedIndexInformer<PodGroup> groups = mock(SharedIndexInformer.class);
    @SuppressWarnings("unchecked")
    private final SharedIndexInformer<Pod> pods = mock(SharedIndexInformer.class);
    @SuppressWarnings("unchecked")
    private final Indexer<PodGroup> groupStore = mock(Indexer.class);
    @SuppressWarnings("unchecked")
    private final Indexer<Pod> podStore = mock(Indexer.class);
    private final StatusWriter statusWriter = mock(StatusWriter.class);
    private final EventRecorder events = mock(EventRecorder.class);
    private PodGroupReconciler reconciler;

    @BeforeEach
    void wire() {
        when(groups.getStore()).thenReturn(groupStore);
        when(pods.getIndexer()).thenReturn(podStore);
        when(groups.hasSynced()).thenReturn(true);
        when(pods.hasSynced()).thenReturn(true);
        reconciler = new PodGroupReconciler(groups, pods, new GangVerdictBoard(), CALCULATOR,
                statusWriter, events, Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));
    }

    @Test
    void waitsForBothCachesBeforeDecidingAnything() {
        when(pods.hasSynced()).thenReturn(false);

        assertThat(reconciler.reconcile(KEY)).isEqualTo(ReconcileResult.after(PodGroupReconciler.CACHE_SYNC_RETRY));
        verifyNoInteractions(statusWriter);
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
    void aWriteLostToANewerVersionWaitsForTheCacheInsteadOfFailing() {
        when(groupStore.getByKey("ns/gang")).thenReturn(group(PodGroupPhase.Pending));
        when(podStore.byIndex(PodsByGroupIndex.NAME, "ns/gang")).thenReturn(List.of(runningPod("a"), runningPod("b")));
        when(statusWriter.writeIfChanged(any(PodGroup.class), any(PodGroupStatus.class)))
                .thenThrow(new KubernetesClientException("the object has been modified", 409, null));

        assertThat(reconciler.reconcile(KEY)).isEqualTo(ReconcileResult.after(PodGroupReconciler.CONFLICT_RETRY));
        verifyNoInteractions(events);
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
