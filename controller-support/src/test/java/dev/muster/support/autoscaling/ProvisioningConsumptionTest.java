package dev.muster.support.autoscaling;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ProvisioningConsumptionTest {
    @Test
    void aPodGroupNamingAProvisionedRequestGivesItsPodsClusterAutoscalersAnnotations() {
        assertThat(ProvisioningConsumption.podAnnotations(annotated(Map.of(ProvisioningConsumption.REQUEST, "train-1",
                ProvisioningConsumption.CLASS, "best-effort-atomic-scale-up.autoscaling.x-k8s.io"))))
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "autoscaling.x-k8s.io/consume-provisioning-request", "train-1",
                        "autoscaling.x-k8s.io/provisioning-class-name",
                        "best-effort-atomic-scale-up.autoscaling.x-k8s.io"));
    }

    @Test
    void withoutBothAnnotationsThePodsGetNone() {
        assertThat(ProvisioningConsumption.podAnnotations(annotated(Map.of(ProvisioningConsumption.REQUEST, "x"))))
                .isEmpty();
        assertThat(ProvisioningConsumption.podAnnotations(annotated(null))).isEmpty();
        assertThat(ProvisioningConsumption.podAnnotations(null)).isEmpty();
    }

    // Any object with metadata will do: only the annotations are read.
    private static HasMetadata annotated(Map<String, String> annotations) {
        return new ConfigMapBuilder().withNewMetadata().withName("train").withAnnotations(annotations).endMetadata()
                .build();
    }
}
