package dev.muster.api.batch.v1alpha1;

import dev.muster.api.batch.v1alpha1.validation.FieldError;
import dev.muster.api.batch.v1alpha1.validation.JobValidator;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JobValidatorTest {

    private static Job parse(String yaml) {
        return Serialization.unmarshal(yaml, Job.class);
    }

    private static final String VALID = """
            apiVersion: batch.muster.dev/v1alpha1
            kind: Job
            metadata: {name: train}
            spec:
              minAvailable: 4
              tasks:
              - name: master
                replicas: 1
                template: {spec: {containers: [{name: m, image: busybox}]}}
              - name: worker
                replicas: 3
                minAvailable: 2
                template: {spec: {containers: [{name: w, image: busybox}]}}
            """;

    @Test
    void validJobHasNoErrorsAndDefaultsAreDerived() {
        Job job = parse(VALID);
        assertThat(JobValidator.validate(job)).isEmpty();
        assertThat(JobDefaults.totalReplicas(job.getSpec())).isEqualTo(4);
        assertThat(JobDefaults.minAvailable(job.getSpec().getTasks().get(1))).isEqualTo(2);
        job.getSpec().setMinAvailable(null);
        assertThat(JobDefaults.minAvailable(job.getSpec())).isEqualTo(3);
        assertThat(JobDefaults.maxRetry(job.getSpec())).isEqualTo(3);
    }

    @Test
    void everyProblemIsListedByFieldPath() {
        Job job = parse("""
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: train}
                spec:
                  minAvailable: 9
                  tasks:
                  - name: Worker_1
                    replicas: 2
                    minAvailable: 3
                    template: {spec: {containers: [{name: w, image: busybox}]}}
                  - name: ps
                    replicas: -1
                    template: {spec: {containers: [{name: w, image: busybox}]}}
                  - name: ps
                    template: {spec: {}}
                """);
        assertThat(JobValidator.validate(job)).extracting(FieldError::toString).containsExactlyInAnyOrder(
                "spec.tasks[0].name: 'Worker_1' must be a DNS-1123 label (lower-case letters, digits and '-', "
                        + "starting and ending with a letter or digit)",
                "spec.tasks[0].minAvailable: must not exceed replicas (2), was 3",
                "spec.tasks[1].replicas: must be >= 0, was -1",
                "spec.tasks[2].name: duplicate task name 'ps'",
                "spec.tasks[2].template.spec.containers: must list at least one container",
                "spec.minAvailable: must not exceed the total replicas of all tasks (2), was 9");
    }

    @Test
    void aMaxRuntimeThatIsNotAGoDurationIsRefused() {
        Job job = parse(VALID);
        job.getSpec().setMaxRuntime("1h30m");
        assertThat(JobValidator.validate(job)).isEmpty();

        job.getSpec().setMaxRuntime("90 minutes");
        assertThat(JobValidator.validate(job)).extracting(FieldError::toString)
                .containsExactly("spec.maxRuntime: '90 minutes' is not a duration like 30s, 5m or 1h30m");
    }

    @Test
    void jobWithoutTasksIsRefused() {
        Job job = parse("""
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: empty}
                spec: {tasks: []}
                """);
        assertThat(JobValidator.describe(JobValidator.validate(job))).isEqualTo("spec.tasks: must list at least one task");
    }

    @Test
    void podNamesLongerThanALabelAreRefused() {
        Job job = parse(VALID);
        job.getMetadata().setName("a".repeat(55));
        assertThat(JobValidator.validate(job)).extracting(FieldError::path).contains("spec.tasks[1].name");
    }
}
