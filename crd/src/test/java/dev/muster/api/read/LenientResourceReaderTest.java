package dev.muster.api.read;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.validation.JobValidator;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import com.fasterxml.jackson.core.type.TypeReference;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LenientResourceReaderTest {

    private static String job(String name, String replicas) {
        return """
                {"apiVersion":"batch.muster.dev/v1alpha1","kind":"Job",
                 "metadata":{"name":"%s","namespace":"team","resourceVersion":"7","uid":"u-%s"},
                 "spec":{"minAvailable":1,"tasks":[{"name":"worker","replicas":%s,
                   "template":{"spec":{"containers":[{"name":"c","image":"busybox"}]}}}]},
                 "status":{"state":{"phase":"Running"},"running":1}}
                """.formatted(name, name, replicas);
    }

    @Test
    void readsAValidJobWhole() {
        Job job = Serialization.unmarshal(job("ok", "3"), Job.class);

        assertThat(job.readFailure()).isEmpty();
        assertThat(job.getSpec().getTasks().get(0).getReplicas()).isEqualTo(3);
        assertThat(job.getStatus().getState().getPhase()).isEqualTo(JobPhase.Running);
        assertThat(job.getMetadata().getResourceVersion()).isEqualTo("7");
        assertThat(Serialization.asJson(Serialization.clone(job))).isEqualTo(Serialization.asJson(job));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "\"three\"      | spec.tasks[0].replicas | three",
            "3000000000     | spec.tasks[0].replicas | out of range",
            "[1]            | spec.tasks[0].replicas | int",
            "{\"a\":1}      | spec.tasks[0].replicas | int"})
    void keepsWhatItCanReadOfAMalformedJobAndSaysWhereItFailed(String replicas, String field, String reasonPart) {
        Job job = Serialization.unmarshal(job("bad", replicas), Job.class);

        assertThat(job.getMetadata().getName()).isEqualTo("bad");
        assertThat(job.getMetadata().getNamespace()).isEqualTo("team");
        assertThat(job.getMetadata().getResourceVersion()).isEqualTo("7");
        assertThat(job.getSpec()).isNull();
        assertThat(job.getStatus().getRunning()).isEqualTo(1);
        assertThat(job.readFailure()).hasValueSatisfying(f -> {
            assertThat(f.field()).isEqualTo(field);
            assertThat(f.reason()).containsIgnoringCase(reasonPart);
        });
        assertThat(JobValidator.describe(JobValidator.validate(job))).startsWith(field + ": ");
    }

    @Test
    void oneMalformedItemLeavesTheRestOfAListReadable() throws Exception {
        String list = "[" + job("a", "1") + "," + job("b", "\"three\"") + "," + job("c", "2") + "]";

        List<Job> items = Serialization.jsonMapper().readValue(list, new TypeReference<List<Job>>() { });

        assertThat(items).extracting(j -> j.getMetadata().getName()).containsExactly("a", "b", "c");
        assertThat(items).extracting(j -> j.readFailure().isPresent()).containsExactly(false, true, false);
    }

    @Test
    void readsAMalformedPodGroupLeniently() {
        PodGroup group = Serialization.unmarshal("""
                {"apiVersion":"scheduling.muster.dev/v1alpha1","kind":"PodGroup",
                 "metadata":{"name":"g","namespace":"team"},"spec":{"minMember":"many"}}
                """, PodGroup.class);

        assertThat(group.getMetadata().getName()).isEqualTo("g");
        assertThat(group.getSpec()).isNull();
        assertThat(group.readFailure()).map(ReadFailure::field).hasValue("spec.minMember");
    }
}
