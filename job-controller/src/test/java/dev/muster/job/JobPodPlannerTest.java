package dev.muster.job;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class JobPodPlannerTest {

    @Test
    void onePodPerTaskIndexNamedJobTaskIndex() {
        List<Pod> pods = JobPodPlanner.desiredPods(TestJobs.quickstart(), 0);

        assertThat(pods).extracting(p -> p.getMetadata().getName())
                .containsExactly("qs-master-0", "qs-worker-0", "qs-worker-1", "qs-worker-2");
        assertThat(pods).allSatisfy(p -> assertThat(p.getMetadata().getNamespace()).isEqualTo(TestJobs.NAMESPACE));
    }

    @Test
    void podCarriesJobLabelsVersionSchedulerAndOwnerAndKeepsTheTemplate() {
        Pod pod = JobPodPlanner.desiredPods(TestJobs.quickstart(), 3).get(2);

        assertThat(pod.getMetadata().getLabels()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "app", "worker",
                MusterLabels.JOB_NAME, "qs",
                MusterLabels.TASK_NAME, "worker",
                MusterLabels.TASK_INDEX, "1",
                MusterLabels.POD_GROUP, "qs"));
        assertThat(pod.getMetadata().getAnnotations()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "note", "kept", MusterLabels.JOB_VERSION, "3"));
        assertThat(pod.getSpec().getSchedulerName()).isEqualTo("muster");
        assertThat(pod.getSpec().getContainers()).extracting(c -> c.getImage()).containsExactly("busybox");
        assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
        OwnerReference owner = pod.getMetadata().getOwnerReferences().get(0);
        assertThat(owner.getApiVersion()).isEqualTo("batch.muster.dev/v1alpha1");
        assertThat(owner.getKind()).isEqualTo("Job");
        assertThat(owner.getName()).isEqualTo("qs");
        assertThat(owner.getUid()).isEqualTo("uid-qs");
        assertThat(owner.getController()).isTrue();
        assertThat(owner.getBlockOwnerDeletion()).isTrue();
    }

    @Test
    void jobSchedulerNameWinsAndTheTemplateIsNotTouched() {
        Job job = TestJobs.quickstart();
        job.getSpec().setSchedulerName("other");
        String template = Serialization.asJson(job.getSpec().getTasks().get(0).getTemplate());

        Pod pod = JobPodPlanner.desiredPods(job, 0).get(0);

        assertThat(pod.getSpec().getSchedulerName()).isEqualTo("other");
        assertThat(Serialization.asJson(job.getSpec().getTasks().get(0).getTemplate())).isEqualTo(template);
    }

    @Test
    void missingPodsAreOnlyThoseNotYetPresent() {
        List<Pod> missing = JobPodPlanner.missingPods(TestJobs.quickstart(), 0, Set.of("qs-master-0", "qs-worker-1"));

        assertThat(missing).extracting(p -> p.getMetadata().getName()).containsExactly("qs-worker-0", "qs-worker-2");
    }
}
