package dev.muster.local;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Muster's CRDs declare a status subresource; spec and status have separate writers. */
@Tag("emulator")
class StatusSubresourceTest extends ApiOnlyClusterTests {
    @Test
    void createIgnoresStatus() {
        Job job = Fixtures.job("created-with-status");
        job.setStatus(jobStatus(JobPhase.Running));

        assertThat(client.resource(job).create().getStatus()).isNull();
        assertThat(client.resources(Job.class).withName("created-with-status").get().getStatus()).isNull();
    }

    @Test
    void statusUpdateChangesOnlyStatus() {
        Job created = client.resource(Fixtures.job("status-only")).create();
        created.getSpec().setMinAvailable(7);
        created.setStatus(jobStatus(JobPhase.Running));

        client.resource(created).updateStatus();

        Job stored = client.resources(Job.class).withName("status-only").get();
        assertThat(stored.getStatus().getState().getPhase()).isEqualTo(JobPhase.Running);
        assertThat(stored.getSpec().getMinAvailable()).isEqualTo(1);
        assertThat(stored.getMetadata().getGeneration()).isEqualTo(1L);
    }

    @Test
    void mainResourceUpdateKeepsStoredStatus() {
        Job created = client.resource(Fixtures.job("spec-only")).create();
        created.setStatus(jobStatus(JobPhase.Pending));
        Job withStatus = client.resource(created).updateStatus();
        withStatus.getSpec().setMinAvailable(0);
        withStatus.setStatus(jobStatus(JobPhase.Failed));

        client.resource(withStatus).update();

        Job stored = client.resources(Job.class).withName("spec-only").get();
        assertThat(stored.getSpec().getMinAvailable()).isEqualTo(0);
        assertThat(stored.getStatus().getState().getPhase()).isEqualTo(JobPhase.Pending);
        assertThat(stored.getMetadata().getGeneration()).isEqualTo(2L);
    }

    @Test
    void podGroupStatusPatchChangesOnlyStatusAndReplacesLists() {
        PodGroup group = new PodGroup();
        group.getMetadata().setName("patched");
        group.getSpec().setMinMember(2);
        client.resource(group).create();
        var resource = client.resources(PodGroup.class).withName("patched");
        resource.subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"status\":{\"phase\":\"Inqueue\",\"conditions\":[{\"type\":\"Unschedulable\",\"status\":\"True\"}]}}");

        resource.subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"spec\":{\"minMember\":9},\"status\":{\"phase\":\"Running\",\"running\":2,"
                        + "\"conditions\":[{\"type\":\"Scheduled\",\"status\":\"True\"}]}}");

        PodGroup stored = resource.get();
        PodGroupStatus status = stored.getStatus();
        assertThat(status.getPhase()).isEqualTo(PodGroupPhase.Running);
        assertThat(status.getRunning()).isEqualTo(2);
        assertThat(status.getConditions()).extracting(c -> c.getType()).containsExactly("Scheduled");
        assertThat(stored.getSpec().getMinMember()).isEqualTo(2);
    }

    @Test
    void podGroupMainResourcePatchKeepsStatus() {
        PodGroup group = new PodGroup();
        group.getMetadata().setName("spec-patched");
        PodGroup created = client.resource(group).create();
        PodGroupStatus status = new PodGroupStatus();
        status.setPhase(PodGroupPhase.Inqueue);
        created.setStatus(status);
        client.resource(created).updateStatus();

        client.resources(PodGroup.class).withName("spec-patched").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"spec\":{\"minMember\":4},\"status\":{\"phase\":\"Failed\"}}");

        PodGroup stored = client.resources(PodGroup.class).withName("spec-patched").get();
        assertThat(stored.getSpec().getMinMember()).isEqualTo(4);
        assertThat(stored.getStatus().getPhase()).isEqualTo(PodGroupPhase.Inqueue);
    }

    private static JobStatus jobStatus(JobPhase phase) {
        JobStatus status = new JobStatus();
        status.getState().setPhase(phase);
        return status;
    }
}
