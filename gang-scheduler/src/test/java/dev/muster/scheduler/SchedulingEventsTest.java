package dev.muster.scheduler;

import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.placement.GangPlacement;
import dev.muster.support.event.EventRecorder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.cache.Store;
import dev.muster.scheduler.core.model.InterPodTerms;
import dev.muster.scheduler.core.model.PlacementConstraints;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/** A gang's event is recorded when what it says changes, not again each cycle that says the same. */
class SchedulingEventsTest {
    private static final GangInfo GANG = new GangInfo(GroupKey.podGroup("ns", "g"), 2, Map.of(), 0,
            Instant.parse("2026-01-01T00:00:00Z"));

    private final EventRecorder recorder = mock(EventRecorder.class);
    @SuppressWarnings("unchecked")
    private final Store<PodGroup> podGroups = mock(Store.class);
    @SuppressWarnings("unchecked")
    private final SchedulingEvents events = new SchedulingEvents(recorder, podGroups, mock(Store.class), Runnable::run);
    private final PodGroup podGroup = new PodGroup();

    SchedulingEventsTest() {
        podGroup.setMetadata(new ObjectMetaBuilder().withNamespace("ns").withName("g").build());
        when(podGroups.getByKey("ns/g")).thenReturn(podGroup);
    }

    private static GangPlacement result(GangPlacement.Outcome outcome, String message) {
        return new GangPlacement(GANG, outcome, List.of(), List.of(), null, message);
    }

    @Test
    void aGangThatStaysPlacedOrWaitsForTheSameReasonIsToldOnce() {
        for (int cycle = 0; cycle < 3; cycle++) {
            events.report(List.of(result(GangPlacement.Outcome.PLACED, "2 pod(s) placed or bound; minMember 2 met.")), List.of());
        }
        verify(recorder, times(1)).record(eq(podGroup), eq(EventRecorder.NORMAL), eq(SchedulingEvents.SCHEDULED), anyString());

        for (int cycle = 0; cycle < 3; cycle++) {
            events.report(List.of(result(GangPlacement.Outcome.NOT_ENOUGH_RESOURCES, "0/3 nodes are available.")), List.of());
        }
        events.report(List.of(result(GangPlacement.Outcome.NOT_ENOUGH_RESOURCES, "0/4 nodes are available.")), List.of());
        verify(recorder, times(2)).record(eq(podGroup), eq(EventRecorder.WARNING),
                eq(SchedulingEvents.FAILED_SCHEDULING), anyString());
    }

    @Test
    void anAdmissionIsNoEventButWhatFollowsItIs() {
        events.report(List.of(result(GangPlacement.Outcome.NOT_ENOUGH_RESOURCES, "0/3 nodes are available.")), List.of());
        events.report(List.of(result(GangPlacement.Outcome.ADMITTED, "the 2 pod(s) minMember 2 needs fit")), List.of());
        events.report(List.of(result(GangPlacement.Outcome.NOT_ENOUGH_RESOURCES, "0/3 nodes are available.")), List.of());

        verify(recorder, times(0)).record(any(), anyString(), eq(PodGroupCondition.REASON_ADMITTED), anyString());
        verify(recorder, times(2)).record(eq(podGroup), eq(EventRecorder.WARNING),
                eq(SchedulingEvents.FAILED_SCHEDULING), eq("0/3 nodes are available."));
    }

    @Test
    void aGangThatLeavesTheQueueAndComesBackIsToldAgain() {
        events.report(List.of(result(GangPlacement.Outcome.PLACED, "placed")), List.of());
        events.report(List.of(), List.of());
        events.report(List.of(result(GangPlacement.Outcome.PLACED, "placed")), List.of());

        verify(recorder, times(2)).record(any(), eq(EventRecorder.NORMAL), eq(SchedulingEvents.SCHEDULED), eq("placed"));
        verify(recorder, times(0)).record(any(Pod.class), anyString(), anyString(), anyString());
    }

    @Test
    void aGangWhosePodsUseFieldsTheSchedulerDoesNotEvaluateIsToldOnceWhichAndAgainWhenTheyChange() {
        PodInfo claims = new PodInfo("ns", "p", GANG.key(), "", 0, ResourceVector.builder().build(),
                PlacementConstraints.NONE, Map.of(), InterPodTerms.NONE, new TreeSet<>(Set.of("spec.volumes[].ephemeral")));
        GangPlacement waiting = new GangPlacement(GANG, GangPlacement.Outcome.NOT_ENOUGH_RESOURCES, List.of(),
                List.of(claims), null, "0/3 nodes are available.").notingNotEvaluated();

        for (int cycle = 0; cycle < 3; cycle++) {
            events.report(List.of(waiting), List.of());
        }

        assertThat(waiting.message()).isEqualTo("0/3 nodes are available. " + GangPlacement.NOT_EVALUATED
                + "spec.volumes[].ephemeral.");
        verify(recorder, times(1)).record(podGroup, EventRecorder.WARNING, SchedulingEvents.POD_SPEC_NOT_EVALUATED,
                "The scheduler does not evaluate spec.volumes[].ephemeral of the gang's pods; they are placed as if absent.");
        verify(recorder, times(1)).record(eq(podGroup), eq(EventRecorder.WARNING),
                eq(SchedulingEvents.FAILED_SCHEDULING), anyString());
    }

    @Test
    void aGangWhosePodsUseOnlyEvaluatedFieldsKeepsItsMessage() {
        GangPlacement plain = result(GangPlacement.Outcome.PLACED, "placed");

        assertThat(plain.notingNotEvaluated()).isSameAs(plain);
    }
}
