package dev.muster.job.decision;

import dev.muster.job.TestJobs;
import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.rendering.JobPodRenderer;
import dev.muster.rendering.VolcanoPodLabels;
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
        List<Pod> pods = JobPodRenderer.pods(TestJobs.quickstart(), 0);

        assertThat(pods).extracting(p -> p.getMetadata().getName())
                .containsExactly("qs-master-0", "qs-worker-0", "qs-worker-1", "qs-worker-2");
        assertThat(pods).allSatisfy(p -> assertThat(p.getMetadata().getNamespace()).isEqualTo(TestJobs.NAMESPACE));
    }

    @Test
    void podCarriesJobLabelsVersionSchedulerAndOwnerAndKeepsTheTemplate() {
        Pod pod = JobPodRenderer.pods(TestJobs.quickstart(), 3).get(2);

        // Volcano's labels and annotations too: the production default (muster.controllers.volcano-pod-labels).
        assertThat(pod.getMetadata().getLabels()).containsExactlyInAnyOrderEntriesOf(Map.ofEntries(
                Map.entry("app", "worker"),
                Map.entry(MusterLabels.JOB_NAME, "qs"),
                Map.entry(MusterLabels.TASK_NAME, "worker"),
                Map.entry(MusterLabels.TASK_INDEX, "1"),
                Map.entry(MusterLabels.POD_GROUP, "qs"),
                Map.entry("volcano.sh/job-name", "qs"),
                Map.entry("volcano.sh/task-spec", "worker"),
                Map.entry("volcano.sh/task-index", "1"),
                Map.entry("volcano.sh/job-namespace", TestJobs.NAMESPACE),
                Map.entry("volcano.sh/queue-name", "default")));
        assertThat(pod.getMetadata().getAnnotations()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "note", "kept", MusterLabels.JOB_VERSION, "3", "volcano.sh/job-name", "qs",
                "volcano.sh/task-spec", "worker", "volcano.sh/task-index", "1", "volcano.sh/queue-name", "default"));
        assertThat(JobPodPlanner.missingPods(TestJobs.quickstart(), 3, Set.of(), Set.of("worker"), false)
                .get(1).getMetadata().getLabels()).doesNotContainKeys("volcano.sh/job-name", "volcano.sh/queue-name");
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

        Pod pod = JobPodRenderer.pods(job, 0).get(0);

        assertThat(pod.getSpec().getSchedulerName()).isEqualTo("other");
        assertThat(Serialization.asJson(job.getSpec().getTasks().get(0).getTemplate())).isEqualTo(template);
    }

    @Test
    void missingPodsAreOnlyThoseNotYetPresent() {
        List<Pod> missing = JobPodPlanner.missingPods(TestJobs.quickstart(), 0, Set.of("qs-master-0", "qs-worker-1"),
                Set.of("master", "worker"), VolcanoPodLabels.DEFAULT);

        assertThat(missing).extracting(p -> p.getMetadata().getName()).containsExactly("qs-worker-0", "qs-worker-2");
    }
}
