package dev.muster.job;

import dev.muster.job.decision.NetworkTopologyTiers;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.batch.v1alpha1.NetworkTopologySpec;
import dev.muster.api.batch.v1alpha1.PartitionPolicySpec;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.support.event.EventRecorder;
import dev.muster.support.status.StatusRecorder;
import io.fabric8.kubernetes.api.model.Condition;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static dev.muster.job.TestJobs.job;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;

class FieldsNotHonouredTest {
    private static final Instant NOW = Instant.parse("2026-11-27T10:00:00Z");
    private static final NetworkTopologyTiers TIERS = new NetworkTopologyTiers(List.of("topology.muster.dev/switch"));

    private static Job jobWithPartitionsAndNuma() {
        TaskSpec worker = task("worker", 4, null);
        PartitionPolicySpec partitions = TestJobs.partitions(2, 2);
        NetworkTopologySpec beyondTheTiers = new NetworkTopologySpec();
        beyondTheTiers.setHighestTierAllowed(2);
        partitions.setNetworkTopology(beyondTheTiers);
        worker.setPartitionPolicy(partitions);
        TaskSpec ps = task("ps", 1, null);
        ps.setTopologyPolicy("single-numa-node");
        Job job = job("train", ps, worker);
        job.getMetadata().setGeneration(3L);
        return job;
    }

    @Test
    void namesEachFieldThatIsAcceptedAndNotHonoured() {
        Job job = jobWithPartitionsAndNuma();
        NetworkTopologySpec topology = new NetworkTopologySpec();
        topology.setHighestTierAllowed(2);
        job.getSpec().setNetworkTopology(topology);

        assertThat(FieldsNotHonoured.of(job.getSpec(), TIERS)).containsExactly(
                "spec.networkTopology: highestTierAllowed 2 is not one of this cluster's tiers 1 to 1 "
                        + "[topology.muster.dev/switch]; the gang is placed as if networkTopology were absent",
                "spec.tasks[0].topologyPolicy: NUMA alignment is not evaluated; the task's pods are placed as if it "
                        + "were absent",
                "spec.tasks[1].partitionPolicy.networkTopology: highestTierAllowed 2 is not one of this cluster's "
                        + "tiers 1 to 1 [topology.muster.dev/switch]; each partition is placed whole, in no particular "
                        + "domain");
    }

    @Test
    void aNetworkTopologyOrPartitionsThatMapOntoTheTiersAreHonouredAndNotNamed() {
        Job job = job("train", task("worker", 2, null));
        NetworkTopologySpec topology = new NetworkTopologySpec();
        topology.setHighestTierAllowed(1);
        job.getSpec().setNetworkTopology(topology);

        assertThat(FieldsNotHonoured.of(job.getSpec(), TIERS)).isEmpty();
        TaskSpec partitioned = task("ps", 4, null);
        PartitionPolicySpec partitions = TestJobs.partitions(2, 2);
        partitions.setNetworkTopology(topology);
        partitioned.setPartitionPolicy(partitions);
        job.getSpec().getTasks().add(partitioned);
        assertThat(FieldsNotHonoured.of(job.getSpec(), TIERS)).as("partitions within tier 1").isEmpty();
        JobStatus next = new JobStatus();
        assertThat(FieldsNotHonoured.apply(job, next, TIERS, NOW)).isEmpty();
        assertThat(next.getControllerConditions()).isNull();
    }

    @Test
    void theConditionIsWrittenWithAWarningOnceAndKeptUnchangedAfterwards() {
        Job job = jobWithPartitionsAndNuma();
        JobStatus first = new JobStatus();

        Optional<StatusRecorder.Event> event = FieldsNotHonoured.apply(job, first, TIERS, NOW);

        assertThat(first.getControllerConditions()).singleElement().satisfies(c -> {
            assertThat(c.getType()).isEqualTo(FieldsNotHonoured.TYPE);
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getReason()).isEqualTo(FieldsNotHonoured.REASON);
            assertThat(c.getObservedGeneration()).isEqualTo(3L);
            assertThat(c.getLastTransitionTime()).isEqualTo("2026-11-27T10:00:00Z");
            assertThat(c.getMessage()).startsWith("Not honoured (accepted, and treated as absent): spec.tasks[0].topologyPolicy");
        });
        assertThat(event).hasValueSatisfying(e -> {
            assertThat(e.type()).isEqualTo(EventRecorder.WARNING);
            assertThat(e.reason()).isEqualTo(FieldsNotHonoured.REASON);
            assertThat(e.message()).isEqualTo(first.getControllerConditions().get(0).getMessage());
        });

        job.setStatus(first);
        JobStatus second = new JobStatus();
        assertThat(FieldsNotHonoured.apply(job, second, TIERS, NOW.plusSeconds(60))).isEmpty();
        Condition kept = second.getControllerConditions().get(0);
        assertThat(kept.getLastTransitionTime()).isEqualTo("2026-11-27T10:00:00Z");
        assertThat(kept.getMessage()).isEqualTo(first.getControllerConditions().get(0).getMessage());
    }
}
