package dev.muster.api.batch.v1alpha1;

import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SpecFingerprintTest {
    private static Job job() {
        return Serialization.unmarshal("""
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: train}
                spec:
                  minAvailable: 2
                  queue: research
                  tasks:
                  - {name: master, template: {spec: {containers: [{name: m, image: busybox}]}}}
                  - {name: worker, replicas: 3, template: {spec: {containers: [{name: w, image: busybox}]}}}
                """, Job.class);
    }

    @Test
    void scalingSuspendAndTtlDoNotChangeTheFingerprints() {
        Job job = job();
        Map<String, String> before = SpecFingerprint.of(job.getSpec());

        job.getSpec().setMinAvailable(1);
        job.getSpec().getTasks().get(1).setReplicas(5);
        job.getSpec().getTasks().get(1).setMinAvailable(2);
        job.getSpec().setSuspend(true);
        job.getSpec().setTtlSecondsAfterFinished(60);

        assertThat(SpecFingerprint.changed(before, SpecFingerprint.of(job.getSpec()))).isEmpty();
    }

    @Test
    void otherChangesAreNamedByFieldPath() {
        Job job = job();
        Map<String, String> before = SpecFingerprint.of(job.getSpec());

        job.getSpec().getTasks().get(1).getTemplate().getSpec().getContainers().get(0).setImage("busybox:2");
        job.getSpec().setQueue(null);
        job.getSpec().setMaxRetry(5);

        assertThat(SpecFingerprint.changed(before, SpecFingerprint.of(job.getSpec())))
                .containsExactly("spec.maxRetry", "spec.queue", "spec.tasks[1].template");
    }

    @Test
    void addingATaskChangesTheTaskListOnly() {
        Job job = job();
        Map<String, String> before = SpecFingerprint.of(job.getSpec());

        job.getSpec().getTasks().remove(0);

        assertThat(SpecFingerprint.changed(before, SpecFingerprint.of(job.getSpec()))).containsExactly("spec.tasks");
    }
}
