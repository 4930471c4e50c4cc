package dev.muster.job;

import dev.muster.job.decision.NetworkTopologyTiers;
import dev.muster.job.decision.PodGroupPlanner;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupSchedulingConstraints;
import dev.muster.api.scheduling.v1alpha1.PodGroupSpec;
import dev.muster.api.scheduling.v1alpha1.TopologyConstraint;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class OwnedPodGroupFieldsTest {

    @Test
    void updatesOnlyTheFieldsTheControllerOwns() {
        PodGroupSpec desired = PodGroupPlanner.desiredPodGroup(TestJobs.quickstart(), NetworkTopologyTiers.NONE).getSpec();
        PodGroupSpec actual = new PodGroupSpec();
        actual.setMinMember(1);
        actual.setScheduleTimeoutSeconds(30);
        actual.setMinResources(Map.of("cpu", new Quantity("4")));

        assertThat(OwnedPodGroupFields.match(actual, desired)).isFalse();
        PodGroupSpec merged = OwnedPodGroupFields.merge(actual, desired);

        assertThat(OwnedPodGroupFields.match(merged, desired)).isTrue();
        desired.setMaxRuntime("30m");
        assertThat(OwnedPodGroupFields.match(merged, desired)).as("maxRuntime is owned").isFalse();
        assertThat(OwnedPodGroupFields.merge(merged, desired).getMaxRuntime()).isEqualTo("30m");
        assertThat(merged.getScheduleTimeoutSeconds()).isEqualTo(30);
        assertThat(merged.getMinResources()).containsEntry("cpu", new Quantity("4"));
        assertThat(actual.getMinMember()).as("the cached spec is not changed").isEqualTo(1);
    }

    @Test
    void aNewPriorityClassOfALiveJobReachesItsPodGroup() {
        // Volcano pkg/controllers/job/job_controller_actions.go shouldUpdateExistingPodGroup: the PodGroup's
        // priorityClassName follows the job's.
        Job job = TestJobs.quickstart();
        job.getSpec().setPriorityClassName("low");
        PodGroupSpec actual = PodGroupPlanner.desiredPodGroup(job, NetworkTopologyTiers.NONE).getSpec();
        job.getSpec().setPriorityClassName("high");
        PodGroupSpec desired = PodGroupPlanner.desiredPodGroup(job, NetworkTopologyTiers.NONE).getSpec();

        assertThat(OwnedPodGroupFields.match(actual, desired)).isFalse();
        assertThat(OwnedPodGroupFields.merge(actual, desired).getPriorityClassName()).isEqualTo("high");
    }

    @Test
    void theJobsGangTopologyIsCopiedOntoItsPodGroupAndKeptThere() {
        Job job = TestJobs.quickstart();
        PodGroupSchedulingConstraints constraints = new PodGroupSchedulingConstraints();
        constraints.setTopology(List.of(new TopologyConstraint("example.com/rack"),
                new TopologyConstraint("topology.kubernetes.io/zone")));
        constraints.setTopologyPolicy(PodGroupSchedulingConstraints.PREFERRED);
        job.getSpec().setSchedulingConstraints(constraints);

        PodGroupSpec desired = PodGroupPlanner.desiredPodGroup(job, NetworkTopologyTiers.NONE).getSpec();

        assertThat(desired.getSchedulingConstraints().getTopology()).extracting(TopologyConstraint::getKey)
                .containsExactly("example.com/rack", "topology.kubernetes.io/zone");
        assertThat(desired.getSchedulingConstraints().getTopologyPolicy()).isEqualTo("Preferred");
        PodGroupSpec edited = OwnedPodGroupFields.merge(new PodGroupSpec(), desired);
        PodGroupSchedulingConstraints required = new PodGroupSchedulingConstraints();
        required.setTopology(constraints.getTopology());
        required.setTopologyPolicy(PodGroupSchedulingConstraints.REQUIRED);
        edited.setSchedulingConstraints(required);
        assertThat(OwnedPodGroupFields.match(edited, desired)).as("an edit on the PodGroup is undone").isFalse();
        assertThat(OwnedPodGroupFields.merge(edited, desired).getSchedulingConstraints().getTopologyPolicy())
                .isEqualTo("Preferred");
    }

    @Test
    void theRunningEstimateIsCopiedOntoThePodGroupAndOwnedThere() {
        Job job = TestJobs.quickstart();
        job.getSpec().setRunningEstimate("90m");

        PodGroupSpec desired = PodGroupPlanner.desiredPodGroup(job, NetworkTopologyTiers.NONE).getSpec();

        assertThat(desired.getRunningEstimate()).isEqualTo("90m");
        PodGroupSpec edited = OwnedPodGroupFields.merge(new PodGroupSpec(), desired);
        edited.setRunningEstimate("1m");
        assertThat(OwnedPodGroupFields.match(edited, desired)).as("an edit on the PodGroup is undone").isFalse();
        assertThat(OwnedPodGroupFields.merge(edited, desired).getRunningEstimate()).isEqualTo("90m");
    }
}
