package dev.muster.local.admission;

import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The emulator refuses MicroTime values kube-apiserver cannot decode (Go's layout has exactly six digits of
 * fraction), so that a client writing nanoseconds finds out here rather than on a real cluster.
 */
@Tag("emulator")
class MicroTimesTest {
    private static LocalCluster cluster;
    private static KubernetesClient client;

    @BeforeAll
    static void start() {
        cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(0));
        client = cluster.client();
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void anEventTimeWithNanosecondsIsRefusedNamingTheFieldAndOneWithMicrosecondsIsTaken() {
        assertThatThrownBy(() -> client.v1().events().inNamespace("default")
                .resource(event("nanos", "2026-11-28T14:02:25.538215983Z")).create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(400);
                    assertThat(e.getStatus().getMessage()).contains("eventTime", "2026-11-28T14:02:25.538215983Z",
                            MicroTimes.LAYOUT);
                });

        client.v1().events().inNamespace("default").resource(event("micros", "2026-11-28T14:02:25.538215Z")).create();
        client.v1().events().inNamespace("default").resource(event("unset", null)).create();

        assertThat(client.v1().events().inNamespace("default").list().getItems())
                .extracting(e -> e.getMetadata().getName()).containsExactlyInAnyOrder("micros", "unset");
    }

    @Test
    void aLeaseAsFabric8sLeaderElectionWritesItIsTakenAndOneWithoutFractionIsRefusedOnUpdate() {
        ZonedDateTime now = ZonedDateTime.of(2026, 11, 28, 14, 2, 25, 538_215_983, ZoneOffset.UTC);
        Lease lease = client.leases().inNamespace("default").resource(new LeaseBuilder().withNewMetadata()
                .withName("leader").endMetadata().withNewSpec().withHolderIdentity("a").withAcquireTime(now)
                .withRenewTime(now).endSpec().build()).create();
        assertThat(lease.getSpec().getRenewTime()).isNotNull();

        String body = "{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\",\"metadata\":{\"name\":\"leader\","
                + "\"namespace\":\"default\",\"resourceVersion\":\"" + lease.getMetadata().getResourceVersion() + "\"},"
                + "\"spec\":{\"holderIdentity\":\"b\",\"renewTime\":\"2026-11-28T14:02:26Z\"}}";
        assertThatThrownBy(() -> client.raw("/apis/coordination.k8s.io/v1/namespaces/default/leases/leader", "PUT", body))
                .isInstanceOf(KubernetesClientException.class).hasMessageContaining("spec.renewTime");
        assertThat(client.leases().inNamespace("default").withName("leader").get().getSpec().getHolderIdentity())
                .isEqualTo("a");
    }

    private static Event event(String name, String eventTime) {
        return new EventBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
                .withNewInvolvedObject().withKind("Pod").withName("p").withNamespace("default").endInvolvedObject()
                .withReason("Test").withMessage("m").withType("Normal")
                .withEventTime(eventTime == null ? null : new MicroTime(eventTime))
                .withReportingComponent("test").withReportingInstance("test").withAction("Test").build();
    }
}
