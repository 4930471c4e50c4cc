package dev.muster.job.decision;

import dev.muster.job.TestJobs;
import dev.muster.api.batch.v1alpha1.JobOwnership;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.NetworkTopologySpec;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupSchedulingConstraints;
import dev.muster.api.scheduling.v1alpha1.PodGroupSpec;
import dev.muster.api.scheduling.v1alpha1.TopologyConstraint;
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
}
