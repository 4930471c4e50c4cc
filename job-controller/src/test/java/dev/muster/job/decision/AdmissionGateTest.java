package dev.muster.job.decision;

import dev.muster.job.TestJobs;
import dev.muster.gang.JobAdmissionRule;
import dev.muster.support.autoscaling.PodsForAutoscaler;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.JobState;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import io.fabric8.kubernetes.api.model.OwnerReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class AdmissionGateTest {
    private static final String GPU_FULL = "0/3 nodes are available: 3 Insufficient nvidia.com/gpu.";

    private final AdmissionGate gate = new AdmissionGate(JobAdmissionRule.ON);
    private final Job job = TestJobs.quickstart();

    private PodGroup group(PodGroupPhase phase, PodGroupCondition... conditions) {
        PodGroup group = PodGroupPlanner.desiredPodGroup(job, NetworkTopologyTiers.NONE);
        if (phase != null || conditions.length > 0) {
            PodGroupStatus status = new PodGroupStatus();
            status.setPhase(phase);
            status.setConditions(List.of(conditions));
            group.setStatus(status);
        }
        return group;
    }

    private static PodGroupCondition condition(String type, String status, String message) {
        PodGroupCondition condition = new PodGroupCondition();
        condition.setType(type);
        condition.setStatus(status);
        condition.setReason(PodGroupCondition.REASON_NOT_ENOUGH_RESOURCES);
        condition.setMessage(message);
        return condition;
    }

    @Test
    void withTheRuleOffNoJobIsGated() {
        Admission admission = new AdmissionGate(JobAdmissionRule.OFF).check(job, Optional.empty());

        assertThat(admission).isEqualTo(Admission.NOT_GATED);
        assertThat(admission.allowsPods()).isTrue();
        assertThat(admission.gated()).isFalse();
        assertThat(admission.describe()).isEmpty();
    }

    @Test
    void jobsOfAnotherSchedulerAreNotGated() {
        job.getSpec().setSchedulerName("default-scheduler");

        assertThat(gate.check(job, Optional.of(group(PodGroupPhase.Pending)))).isEqualTo(Admission.NOT_GATED);
    }

    @Test
    void jobWithoutSchedulerNameIsOfMusterAndWaitsWhileItHasNoPodGroup() {
        Admission admission = gate.check(job, Optional.empty());

        assertThat(admission.stage()).isEqualTo(Admission.Stage.WAITING);
        assertThat(admission.allowsPods()).isFalse();
        assertThat(admission.describe()).isEqualTo("waiting for scheduler muster to admit PodGroup qs");
    }

    @Test
    void podGroupWithoutPhaseWaits() {
        assertThat(gate.check(job, Optional.of(group(null))).allowsPods()).isFalse();
    }

    @Test
    void pendingPodGroupWaitsWithTheSchedulersReasonWhenUnschedulable() {
        Admission admission = gate.check(job, Optional.of(group(PodGroupPhase.Pending,
                condition(PodGroupCondition.SCHEDULED, "False", "not yet"),
                condition(PodGroupCondition.UNSCHEDULABLE, "True", GPU_FULL))));

        assertThat(admission.allowsPods()).isFalse();
        assertThat(admission.describe()).isEqualTo("waiting for scheduler muster to admit PodGroup qs: " + GPU_FULL);
    }

    @Test
    void aPodGroupMarkedForTheAutoscalerLetsThePodsBeCreatedBeforeAdmission() {
        PodGroup group = group(PodGroupPhase.Pending, condition(PodGroupCondition.UNSCHEDULABLE, "True", GPU_FULL));
        group.getMetadata().setAnnotations(java.util.Map.of(PodsForAutoscaler.ANNOTATION, "true"));

        Admission admission = gate.check(job, Optional.of(group));

        assertThat(admission.stage()).isEqualTo(Admission.Stage.FOR_AUTOSCALER);
        assertThat(admission.allowsPods()).isTrue();
        assertThat(admission.describe()).isEqualTo("pods created pending for the cluster autoscaler, waiting for "
                + "scheduler muster to place PodGroup qs all at once: " + GPU_FULL);
    }

    @Test
    void unschedulableConditionThatIsNotTrueSaysNothing() {
        Admission admission = gate.check(job, Optional.of(group(PodGroupPhase.Pending,
                condition(PodGroupCondition.UNSCHEDULABLE, "False", GPU_FULL))));

        assertThat(admission.unschedulable()).isNull();
        assertThat(admission.describe()).isEqualTo("waiting for scheduler muster to admit PodGroup qs");
    }

    @ParameterizedTest
    @EnumSource(value = PodGroupPhase.class, names = "Pending", mode = EnumSource.Mode.EXCLUDE)
    void anyPhaseButPendingAdmits(PodGroupPhase phase) {
        Admission admission = gate.check(job, Optional.of(group(phase)));

        assertThat(admission.stage()).isEqualTo(Admission.Stage.ADMITTED);
        assertThat(admission.allowsPods()).isTrue();
        assertThat(admission.describe()).isEqualTo("PodGroup qs admitted by scheduler muster");
    }

    @Test
    void podGroupOfAnEarlierJobOfTheSameNameAdmitsNothing() {
        PodGroup stale = group(PodGroupPhase.Running);
        OwnerReference owner = stale.getMetadata().getOwnerReferences().get(0);
        owner.setUid("uid-of-the-deleted-job");

        assertThat(gate.check(job, Optional.of(stale)).allowsPods()).isFalse();
    }

    @Test
    void podGroupMadeByAUserIsTheJobsGang() {
        PodGroup userMade = group(PodGroupPhase.Inqueue);
        userMade.getMetadata().setOwnerReferences(null);

        assertThat(gate.check(job, Optional.of(userMade)).allowsPods()).isTrue();
    }

    @Test
    void aRunningJobIsNeverHeldBackSinceOnlyPendingJobsAreAdmitted() {
        JobStatus status = new JobStatus();
        JobState state = new JobState();
        state.setPhase(JobPhase.Running);
        status.setState(state);
        job.setStatus(status);

        Admission admission = gate.check(job, Optional.of(group(PodGroupPhase.Pending)));

        assertThat(admission.allowsPods()).isTrue();
        assertThat(admission.gated()).isFalse();
    }
}
