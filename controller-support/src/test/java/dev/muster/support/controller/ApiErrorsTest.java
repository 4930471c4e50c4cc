package dev.muster.support.controller;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ApiErrorsTest {
    private static KubernetesClientException answer(int code, String reason) {
        Status status = new StatusBuilder().withCode(code).withReason(reason).withMessage("from the server").build();
        return new KubernetesClientException(status);
    }

    @Test
    void onlyA409WithReasonAlreadyExistsSaysTheObjectIsThere() {
        assertThat(ApiErrors.alreadyExists(answer(409, "AlreadyExists"))).isTrue();
        assertThat(ApiErrors.alreadyExists(answer(409, "Conflict"))).isFalse();
        assertThat(ApiErrors.alreadyExists(answer(500, "AlreadyExists"))).isFalse();
        assertThat(ApiErrors.alreadyExists(new KubernetesClientException("no answer"))).isFalse();
    }

    @Test
    void every409IsALostRace() {
        assertThat(ApiErrors.isConflict(answer(409, "Conflict"))).isTrue();
        assertThat(ApiErrors.isConflict(answer(409, "AlreadyExists"))).isTrue();
        assertThat(ApiErrors.isConflict(answer(429, "TooManyRequests"))).isFalse();
        assertThat(ApiErrors.isConflict(new IllegalStateException("not an API answer"))).isFalse();
    }

    @Test
    void a404NamingTheReconciledObjectSaysItWasDeletedMeanwhileAndOneNamingAnotherDoesNot() {
        ObjectKey key = new ObjectKey("team", "train");
        KubernetesClientException gone = new KubernetesClientException(new StatusBuilder().withCode(404).withReason("NotFound")
                .withNewDetails().withName("train").withKind("jobs").endDetails().build());
        KubernetesClientException noNamespace = new KubernetesClientException(new StatusBuilder().withCode(404)
                .withReason("NotFound").withNewDetails().withName("team").withKind("namespaces").endDetails().build());

        assertThat(ApiErrors.deletedMeanwhile(gone, key)).isTrue();
        assertThat(ApiErrors.deletedMeanwhile(noNamespace, key)).isFalse();
        assertThat(ApiErrors.deletedMeanwhile(answer(404, "NotFound"), key)).isFalse();
        assertThat(ApiErrors.deletedMeanwhile(answer(409, "Conflict"), key)).isFalse();
    }
}
