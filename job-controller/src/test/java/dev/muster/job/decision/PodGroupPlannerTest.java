package dev.muster.job.decision;

import dev.muster.job.TestJobs;
import dev.muster.api.batch.v1alpha1.JobOwnership;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.NetworkTopologySpec;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupSchedulingConstraints;
import dev.muster.api.scheduling.v1alpha1.PodGroupSpec;
import dev.muster.api.scheduling.v1alpha1.TopologyConstraint;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.muster.job.TestJobs.job;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;

class PodGroupPlannerTest {

    @Test
    void groupCarriesTheJobAndTaskMinimumsQueuePriorityAndOwner() {
        Job job = job("train", task("master", 1, null), task("worker", 4, 2));
        job.getSpec().setQueue("research");
        job.getSpec().setPriorityClassName("high");
        job.getSpec().setMaxRuntime("2h");

        PodGroup group = PodGroupPlanner.desiredPodGroup(job, NetworkTopologyTiers.NONE);

        assertThat(group.getMetadata().getName()).isEqualTo("train");
        assertThat(group.getMetadata().getNamespace()).isEqualTo(TestJobs.NAMESPACE);
        assertThat(group.getSpec().getMinMember()).isEqualTo(3);
        assertThat(group.getSpec().getMinTaskMember()).containsExactly(Map.entry("master", 1), Map.entry("worker", 2));
        assertThat(group.getSpec().getQueue()).isEqualTo("research");
        assertThat(group.getSpec().getPriorityClassName()).isEqualTo("high");
        assertThat(group.getSpec().getMaxRuntime()).isEqualTo("2h");
        assertThat(JobOwnership.isControlledBy(group, job)).isTrue();
        assertThat(JobOwnership.controllingJob(group)).contains("train");
    }

    /**
     * Volcano defaults a task's minAvailable to its replicas and, when the job's minAvailable is below
     * their sum, its scheduler enforces no task minimum ({@code JobInfo.CheckTaskValid}). Muster writes
     * what is enforced: every task's minTaskMember is 0, so a 3-of-6 job is a gang of any 3 pods.
     */
    @Test
    void anElasticJobsGroupHasNoTaskMinimums() {
        Job job = job("elastic", task("worker", 6, null));
        job.getSpec().setMinAvailable(3);

        PodGroupSpec spec = PodGroupPlanner.desiredPodGroup(job, NetworkTopologyTiers.NONE).getSpec();

        assertThat(spec.getMinMember()).isEqualTo(3);
        assertThat(spec.getMinTaskMember()).containsExactly(Map.entry("worker", 0));
    }

    /** Volcano: an explicit task minimum is no different once the webhook has defaulted the others. */
    @Test
    void anExplicitTaskMinimumOfAnElasticJobIsNotEnforcedEither() {
        Job job = job("elastic", task("ps", 1, 1), task("worker", 6, null));
        job.getSpec().setMinAvailable(3);

        assertThat(PodGroupPlanner.desiredPodGroup(job, NetworkTopologyTiers.NONE).getSpec().getMinTaskMember())
                .containsExactly(Map.entry("ps", 0), Map.entry("worker", 0));
    }

    /** Volcano: minAvailable equal to the sum of the task minimums is not elastic; each is enforced. */
    @Test
    void aJobAtTheSumOfItsTaskMinimumsKeepsThem() {
        Job job = job("train", task("ps", 1, null), task("worker", 6, 2));
        job.getSpec().setMinAvailable(3);

        assertThat(PodGroupPlanner.desiredPodGroup(job, NetworkTopologyTiers.NONE).getSpec().getMinTaskMember())
                .containsExactly(Map.entry("ps", 1), Map.entry("worker", 2));
    }

    @Test
    void jobMinAvailableOverridesTheSumOfTaskMinimums() {
        Job job = TestJobs.quickstart();
        job.getSpec().setMinAvailable(2);

        assertThat(PodGroupPlanner.desiredPodGroup(job, NetworkTopologyTiers.NONE).getSpec().getMinMember()).isEqualTo(2);
    }

    @Test
    void updatesOnlyTheFieldsTheControllerOwns() {
        PodGroupSpec desired = PodGroupPlanner.desiredPodGroup(TestJobs.quickstart(), NetworkTopologyTiers.NONE).getSpec();
        PodGroupSpec actual = new PodGroupSpec();
        actual.setMinMember(1);
        actual.setScheduleTimeoutSeconds(30);
        actual.setMinResources(Map.of("cpu", new Quantity("4")));

        assertThat(PodGroupPlanner.ownedFieldsMatch(actual, desired)).isFalse();
        PodGroupSpec merged = PodGroupPlanner.withOwnedFields(actual, desired);

        assertThat(PodGroupPlanner.ownedFieldsMatch(merged, desired)).isTrue();
        desired.setMaxRuntime("30m");
        assertThat(PodGroupPlanner.ownedFieldsMatch(merged, desired)).as("maxRuntime is owned").isFalse();
        assertThat(PodGroupPlanner.withOwnedFields(merged, desired).getMaxRuntime()).isEqualTo("30m");
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

        assertThat(PodGroupPlanner.ownedFieldsMatch(actual, desired)).isFalse();
        assertThat(PodGroupPlanner.withOwnedFields(actual, desired).getPriorityClassName()).isEqualTo("high");
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
        PodGroupSpec edited = PodGroupPlanner.withOwnedFields(new PodGroupSpec(), desired);
        PodGroupSchedulingConstraints required = new PodGroupSchedulingConstraints();
        required.setTopology(constraints.getTopology());
        required.setTopologyPolicy(PodGroupSchedulingConstraints.REQUIRED);
        edited.setSchedulingConstraints(required);
        assertThat(PodGroupPlanner.ownedFieldsMatch(edited, desired)).as("an edit on the PodGroup is undone").isFalse();
        assertThat(PodGroupPlanner.withOwnedFields(edited, desired).getSchedulingConstraints().getTopologyPolicy())
                .isEqualTo("Preferred");
    }

    @Test
    void aNetworkTopologyBecomesTheGangTopologyOfTheConfiguredTiers() {
        Job job = TestJobs.quickstart();
        NetworkTopologySpec topology = new NetworkTopologySpec();
        topology.setMode(NetworkTopologySpec.SOFT);
        topology.setHighestTierAllowed(2);
        job.getSpec().setNetworkTopology(topology);
        NetworkTopologyTiers tiers = new NetworkTopologyTiers(List.of("example.com/switch", "example.com/spine",
                "topology.kubernetes.io/zone"));

        PodGroupSpec desired = PodGroupPlanner.desiredPodGroup(job, tiers).getSpec();

        assertThat(desired.getSchedulingConstraints().getTopology()).extracting(TopologyConstraint::getKey)
                .containsExactly("example.com/switch", "example.com/spine");
        assertThat(desired.getSchedulingConstraints().getTopologyPolicy()).isEqualTo(PodGroupSchedulingConstraints.PREFERRED);
        assertThat(PodGroupPlanner.desiredPodGroup(job, NetworkTopologyTiers.NONE).getSpec().getSchedulingConstraints())
                .as("without tiers it is not honoured").isNull();
    }

    @Test
    void theRunningEstimateIsCopiedOntoThePodGroupAndOwnedThere() {
        Job job = TestJobs.quickstart();
        job.getSpec().setRunningEstimate("90m");

        PodGroupSpec desired = PodGroupPlanner.desiredPodGroup(job, NetworkTopologyTiers.NONE).getSpec();

        assertThat(desired.getRunningEstimate()).isEqualTo("90m");
        PodGroupSpec edited = PodGroupPlanner.withOwnedFields(new PodGroupSpec(), desired);
        edited.setRunningEstimate("1m");
        assertThat(PodGroupPlanner.ownedFieldsMatch(edited, desired)).as("an edit on the PodGroup is undone").isFalse();
        assertThat(PodGroupPlanner.withOwnedFields(edited, desired).getRunningEstimate()).isEqualTo("90m");
    }
}
