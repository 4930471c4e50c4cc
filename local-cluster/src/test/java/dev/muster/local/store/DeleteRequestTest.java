package dev.muster.local.store;

import dev.muster.local.protocol.Json;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link DeleteRequest} reads DeleteOptions as kube-apiserver does: the body first, then the query. */
class DeleteRequestTest {
    private static final String POD = "/api/v1/namespaces/default/pods/p";

    @Test
    void theBodysGracePeriodWinsOverTheQuerys() {
        DeleteRequest request = DeleteRequest.of(POD + "?gracePeriodSeconds=7", bytes("{\"gracePeriodSeconds\":0}"));

        assertThat(request.gracePeriodSeconds()).isZero();
        assertThat(DeleteRequest.of(POD + "?dryRun=&gracePeriodSeconds=7", bytes("{\"kind\":\"DeleteOptions\"}"))
                .gracePeriodSeconds()).isEqualTo(7);
        assertThat(DeleteRequest.of(POD, null)).isEqualTo(DeleteRequest.DEFAULT);
    }

    @Test
    void preconditionsOnUidAndResourceVersionAreChecked() {
        DeleteRequest request = DeleteRequest.of(POD,
                bytes("{\"preconditions\":{\"uid\":\"u1\",\"resourceVersion\":\"5\"}}"));

        assertThat(request.preconditionFailure(Json.stored("{\"metadata\":{\"uid\":\"u1\",\"resourceVersion\":\"5\"}}")))
                .isNull();
        assertThat(request.preconditionFailure(Json.stored("{\"metadata\":{\"uid\":\"u2\",\"resourceVersion\":\"5\"}}")))
                .startsWith("Precondition failed: UID in precondition: u1");
        assertThat(request.preconditionFailure(Json.stored("{\"metadata\":{\"uid\":\"u1\",\"resourceVersion\":\"6\"}}")))
                .startsWith("Precondition failed: ResourceVersion in precondition: 5");
    }

    @Test
    void aBadGracePeriodOrBodyIsRefused() {
        assertThatThrownBy(() -> DeleteRequest.of(POD + "?gracePeriodSeconds=soon", null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DeleteRequest.of(POD, bytes("[1]"))).isInstanceOf(IllegalArgumentException.class);
    }

    private static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }
}
