package dev.muster.manager.endpoint;

import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroupSpec;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PodGroupSummaryTest {

    @Test
    void showsPhaseCountersAndBothConditionsWithoutBookkeeping() {
        PodGroup group = group();
        PodGroupStatus status = new PodGroupStatus();
        status.setPhase(PodGroupPhase.Pending);
        status.setRunning(1);
        status.setSucceeded(2);
        status.setFailed(3);
        status.setConditions(List.of(
                condition(PodGroupCondition.SCHEDULED, "False", PodGroupCondition.REASON_POD_FAILED, "2 of minMember 3 pods running"),
                condition(PodGroupCondition.UNSCHEDULABLE, "True", PodGroupCondition.REASON_NOT_ENOUGH_RESOURCES,
                        "0/3 nodes are available: 3 Insufficient cpu.")));
        group.setStatus(status);

        assertThat(PodGroupSummary.of(group)).isEqualTo(new PodGroupSummary("team-a", "nginx", "Pending", 3, 1, 2, 3,
                new PodGroupSummary.Condition("True", "NotEnoughResources", "0/3 nodes are available: 3 Insufficient cpu."),
                new PodGroupSummary.Condition("False", "PodFailed", "2 of minMember 3 pods running")));
    }

    @Test
    void aGroupWithoutStatusHasNoPhaseAndNoConditions() {
        assertThat(PodGroupSummary.of(group()))
                .isEqualTo(new PodGroupSummary("team-a", "nginx", null, 3, 0, 0, 0, null, null));
    }

    private static PodGroup group() {
        PodGroupSpec spec = new PodGroupSpec();
        spec.setMinMember(3);
        PodGroup group = new PodGroup();
        group.setMetadata(new ObjectMetaBuilder().withNamespace("team-a").withName("nginx").build());
        group.setSpec(spec);
        return group;
    }

    private static PodGroupCondition condition(String type, String status, String reason, String message) {
        PodGroupCondition condition = new PodGroupCondition();
        condition.setType(type);
        condition.setStatus(status);
        condition.setReason(reason);
        condition.setMessage(message);
        condition.setTransitionID("a1b2");
        condition.setLastTransitionTime("2026-01-01T00:00:00Z");
        return condition;
    }
}
