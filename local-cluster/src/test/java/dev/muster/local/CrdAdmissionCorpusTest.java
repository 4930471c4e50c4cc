package dev.muster.local;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobValidationCorpusTest;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * crd's bad-input corpus created through the emulator as a user would: each case the API server refuses is
 * refused with its 422 {@code Invalid}, a cause per field with the API server's wording, and the message
 * {@code Job.batch.muster.dev "train" is invalid: ...}; the cases only the controller can refuse are admitted.
 */
@Tag("emulator")
class CrdAdmissionCorpusTest extends ApiOnlyClusterTests {

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.muster.api.batch.v1alpha1.JobValidationCorpusTest#corpus")
    void badInputIsRefusedAtAdmissionWithTheApiServersCauses(String name, Job job, List<String> admission,
                                                             List<String> controller) {
        String namespace = "corpus-" + name.replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");

        if (admission.isEmpty()) {
            assertThat(client.resource(job).inNamespace(namespace).create().getMetadata().getUid()).isNotBlank();
            return;
        }
        KubernetesClientException refused = catchThrowableOfType(KubernetesClientException.class,
                () -> client.resource(job).inNamespace(namespace).create());

        assertThat(refused.getCode()).isEqualTo(422);
        assertThat(refused.getStatus().getReason()).isEqualTo("Invalid");
        assertThat(refused.getStatus().getDetails().getName()).isEqualTo("train");
        assertThat(refused.getStatus().getDetails().getGroup()).isEqualTo("batch.muster.dev");
        assertThat(refused.getStatus().getDetails().getKind()).isEqualTo("Job");
        assertThat(refused.getStatus().getDetails().getCauses()).extracting(CrdAdmissionCorpusTest::asText)
                .containsExactlyInAnyOrderElementsOf(admission);
        assertThat(refused.getStatus().getMessage()).startsWith("Job.batch.muster.dev \"train\" is invalid: ")
                .contains(admission);
        assertThat(client.resources(Job.class).inNamespace(namespace).withName("train").get()).isNull();
    }

    @Test
    void aValidJobUsingEveryFeatureIsAdmittedUnchanged() {
        Job job = JobValidationCorpusTest.validJobWithEveryFeature();

        Job created = client.resource(job).inNamespace("corpus-valid").create();

        assertThat(Serialization.asJson(created.getSpec())).isEqualTo(Serialization.asJson(job.getSpec()));
    }

    private static String asText(StatusCause cause) {
        return cause.getField() + ": " + cause.getMessage();
    }
}
