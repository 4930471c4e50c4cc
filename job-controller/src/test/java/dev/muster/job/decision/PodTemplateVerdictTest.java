package dev.muster.job.decision;

import dev.muster.api.batch.v1alpha1.validation.FieldError;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.StatusCauseBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PodTemplateVerdictTest {
    private static final FieldError REFUSED = new FieldError("spec.tasks[0].template",
            "the API server refused pod train-worker-0 in a dry run");

    @Test
    void anAcceptedPodRefusesNothingAndKeepsTheWarnings() {
        PodTemplateVerdict verdict = PodTemplateVerdict.of(1, "train-worker-0", 201, null,
                List.of("would violate PodSecurity \"restricted:latest\": allowPrivilegeEscalation != false")).orElseThrow();

        assertThat(verdict.refusals()).isEmpty();
        assertThat(verdict.describeWarnings(1)).containsExactly(
                "spec.tasks[1].template: would violate PodSecurity \"restricted:latest\": allowPrivilegeEscalation != false");
    }

    @Test
    void anInvalidPodIsRefusedAtEachFieldTheApiServerNamesInsideTheTasksTemplate() {
        Status invalid = new StatusBuilder().withCode(422).withReason("Invalid")
                .withMessage("Pod \"train-worker-0\" is invalid: [spec.containers[0].image: Required value, "
                        + "spec.containers[1].name: Duplicate value: \"main\"]")
                .withNewDetails().withName("train-worker-0").withKind("Pod").withCauses(
                        new StatusCauseBuilder().withReason("FieldValueRequired").withField("spec.containers[0].image")
                                .withMessage("Required value").build(),
                        new StatusCauseBuilder().withReason("FieldValueDuplicate").withField("spec.containers[1].name")
                                .withMessage("Duplicate value: \"main\"").build())
                .endDetails().build();

        PodTemplateVerdict verdict = PodTemplateVerdict.of(0, "train-worker-0", 422, invalid, List.of()).orElseThrow();

        assertThat(verdict.refusals()).containsExactly(REFUSED,
                new FieldError("spec.tasks[0].template.spec.containers[0].image", "Required value"),
                new FieldError("spec.tasks[0].template.spec.containers[1].name", "Duplicate value: \"main\""));
    }

    @Test
    void aMisspeltFieldRefusedByStrictDecodingIsNamedAsAFieldOfTheTemplate() {
        Status undecodable = new StatusBuilder().withCode(400).withReason("BadRequest")
                .withMessage("Pod in version \"v1\" cannot be handled as a Pod: strict decoding error: unknown field "
                        + "\"spec.containers[0].resorces\", unknown field \"spec.restartPolicyy\"").build();

        PodTemplateVerdict verdict = PodTemplateVerdict.of(0, "train-worker-0", 400, undecodable, List.of()).orElseThrow();

        assertThat(verdict.refusals()).containsExactly(REFUSED,
                new FieldError("spec.tasks[0].template.spec.containers[0].resorces", "unknown field"),
                new FieldError("spec.tasks[0].template.spec.restartPolicyy", "unknown field"));
    }

    @Test
    void aRefusalThatNamesNoFieldIsTheTemplatesWithTheApiServersMessage() {
        Status bad = new StatusBuilder().withCode(400).withReason("BadRequest")
                .withMessage("Pod in version \"v1\" cannot be handled as a Pod: quantities must match the regular expression").build();

        assertThat(PodTemplateVerdict.of(2, "train-worker-0", 400, bad, List.of()).orElseThrow().refusals()).containsExactly(
                new FieldError("spec.tasks[2].template", "the API server refused pod train-worker-0 in a dry run: "
                        + "Pod in version \"v1\" cannot be handled as a Pod: quantities must match the regular expression"));
    }

    @Test
    void podSecurityEnforcingItsLevelJudgesTheTemplateForItsNamespace() {
        String violation = "pods \"train-worker-0\" is forbidden: violates PodSecurity \"restricted:latest\": "
                + "allowPrivilegeEscalation != false (container \"main\" must set securityContext.allowPrivilegeEscalation=false)";
        Status forbidden = new StatusBuilder().withCode(403).withReason("Forbidden").withMessage(violation).build();

        assertThat(PodTemplateVerdict.of(1, "train-worker-0", 403, forbidden, List.of()).orElseThrow().refusals())
                .containsExactly(new FieldError("spec.tasks[1].template",
                        "the API server refused pod train-worker-0 in a dry run: " + violation));
    }

    @Test
    void limitRangerHoldingAContainerToItsNamespacesBoundsJudgesTheTemplate() {
        String one = "pods \"train-worker-0\" is forbidden: maximum cpu usage per Container is 2, but limit is 4";
        String several = "pods \"train-worker-0\" is forbidden: [minimum memory usage per Container is 64Mi, but request "
                + "is 32Mi, cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000]";

        for (String refusal : List.of(one, several)) {
            Status forbidden = new StatusBuilder().withCode(403).withReason("Forbidden").withMessage(refusal).build();
            assertThat(PodTemplateVerdict.of(0, "train-worker-0", 403, forbidden, List.of()).orElseThrow().refusals())
                    .containsExactly(new FieldError("spec.tasks[0].template",
                            "the API server refused pod train-worker-0 in a dry run: " + refusal));
        }
    }

    @Test
    void priorityAdmissionRefusingAPriorityTheClassDoesNotGiveJudgesTheTemplate() {
        String priority = "pods \"train-worker-0\" is forbidden: the integer value of priority (5) must not be provided "
                + "in pod spec; priority admission controller computed 1000 from the given PriorityClass name";
        String policy = "pods \"train-worker-0\" is forbidden: the string value of PreemptionPolicy (Never) must not be "
                + "provided in pod spec; priority admission controller computed PreemptLowerPriority from the given "
                + "PriorityClass name";

        for (String refusal : List.of(priority, policy)) {
            Status forbidden = new StatusBuilder().withCode(403).withReason("Forbidden").withMessage(refusal).build();
            assertThat(PodTemplateVerdict.of(0, "train-worker-0", 403, forbidden, List.of()).orElseThrow().refusals())
                    .containsExactly(new FieldError("spec.tasks[0].template",
                            "the API server refused pod train-worker-0 in a dry run: " + refusal));
        }
    }

    @Test
    void anAnswerThatSaysNothingOfTheTemplateIsNoVerdict() {
        Status quota = new StatusBuilder().withCode(403).withReason("Forbidden")
                .withMessage("pods \"train-worker-0\" is forbidden: exceeded quota: compute").build();

        assertThat(PodTemplateVerdict.of(0, "train-worker-0", 403, quota, List.of())).isEmpty();
        Status webhook = new StatusBuilder().withCode(403).withReason("Forbidden").withMessage("admission webhook "
                + "\"validation.gatekeeper.sh\" denied the request: [quota-per-team] team-a runs 40 pods, at most 40").build();
        assertThat(PodTemplateVerdict.of(0, "train-worker-0", 403, webhook, List.of())).isEmpty();
        assertThat(PodTemplateVerdict.of(0, "train-worker-0", 409, null, List.of())).isEmpty();
        assertThat(PodTemplateVerdict.of(0, "train-worker-0", 500, null, List.of())).isEmpty();
        assertThat(PodTemplateVerdict.of(0, "train-worker-0", 429, null, List.of())).isEmpty();
    }
}
