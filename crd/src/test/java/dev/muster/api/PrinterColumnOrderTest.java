package dev.muster.api;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.Queue;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The CRDs the build generates (and the chart and the local cluster install) list columns as kubectl users expect. */
class PrinterColumnOrderTest {

    private static List<String> columns(Class<? extends HasMetadata> kind) throws IOException {
        try (InputStream in = PrinterColumnOrderTest.class.getResourceAsStream(
                "/META-INF/fabric8/" + HasMetadata.getFullResourceName(kind) + "-v1.yml")) {
            CustomResourceDefinition crd = Serialization.unmarshal(in, CustomResourceDefinition.class);
            return crd.getSpec().getVersions().get(0).getAdditionalPrinterColumns().stream()
                    .map(CustomResourceColumnDefinition::getName).toList();
        }
    }

    @Test
    void kubectlGetMjobShowsThePhaseThenTheCountsThenTheAge() throws IOException {
        assertThat(columns(Job.class)).containsExactly("Phase", "Min", "Running", "Succeeded", "Failed", "Reason", "Age");
    }

    @Test
    void kubectlGetPgShowsThePhaseThenTheCountsThenTheAge() throws IOException {
        assertThat(columns(PodGroup.class)).containsExactly("Phase", "Min", "Running", "Succeeded", "Failed", "Age");
    }

    @Test
    void kubectlGetQShowsTheStateThenTheSharesThenTheCountsThenTheAge() throws IOException {
        assertThat(columns(Queue.class)).containsExactly("State", "Weight", "Guarantee", "Allocated", "Fair Share",
                "Pending", "Running", "Age");
    }

    @Test
    void theGeneratedOrderIsTheDeclaredOne() throws IOException {
        assertThat(columns(Job.class)).isEqualTo(PrinterColumnOrder.declaredOrder(Job.class));
        assertThat(columns(PodGroup.class)).isEqualTo(PrinterColumnOrder.declaredOrder(PodGroup.class));
        assertThat(columns(Queue.class)).isEqualTo(PrinterColumnOrder.declaredOrder(Queue.class));
    }
}
