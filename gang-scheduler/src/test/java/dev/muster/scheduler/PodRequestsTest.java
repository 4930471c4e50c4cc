package dev.muster.scheduler;

import dev.muster.scheduler.core.model.ResourceVector;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PodRequestsTest {
    private static final long GI = 1L << 30;

    private static Container container(String cpu, String memory) {
        return new ContainerBuilder().withName("c").withNewResources()
                .addToRequests("cpu", new Quantity(cpu)).addToRequests("memory", new Quantity(memory))
                .endResources().build();
    }

    @Test
    void takesTheLargerOfTheAppContainersSumAndTheBiggestInitContainer() {
        PodSpec spec = new PodSpecBuilder()
                .withContainers(container("1", "1Gi"), container("500m", "1Gi"))
                .withInitContainers(container("3", "1Gi"), container("100m", "512Mi"))
                .build();

        assertThat(PodRequests.of(spec).asMap()).isEqualTo(Map.of("cpu", 3000L, "memory", 2 * GI));
    }

    @Test
    void addsSidecarsToTheAppContainersAndToEveryLaterInitContainer() {
        Container sidecar = new ContainerBuilder(container("500m", "256Mi")).withRestartPolicy("Always").build();
        PodSpec spec = new PodSpecBuilder()
                .withContainers(container("1", "1Gi"))
                .withInitContainers(sidecar, container("2", "256Mi"))
                .build();

        // Apps: 1 + 0.5 sidecar = 1.5 cpu; init peak: 2 + 0.5 sidecar = 2.5 cpu. Memory: 1Gi + 256Mi.
        assertThat(PodRequests.of(spec).asMap())
                .isEqualTo(Map.of("cpu", 2500L, "memory", GI + GI / 4));
    }

    @Test
    void addsOverheadAndDefaultsRequestsToLimitsAndKeepsExtendedResources() {
        Container gpu = new ContainerBuilder().withName("c").withNewResources()
                .addToLimits("nvidia.com/gpu", new Quantity("2")).addToLimits("cpu", new Quantity("1500m"))
                .addToRequests("cpu", new Quantity("1")).endResources().build();
        PodSpec spec = new PodSpecBuilder().withContainers(gpu)
                .withOverhead(Map.of("cpu", new Quantity("250m"), "memory", new Quantity("64Mi"))).build();

        ResourceVector requests = PodRequests.of(spec);

        assertThat(requests.asMap()).isEqualTo(Map.of("cpu", 1250L, "memory", 64L << 20, "nvidia.com/gpu", 2L));
    }

    @Test
    void roundsFractionalAmountsUp() {
        PodSpec spec = new PodSpecBuilder().withContainers(container("0.0001", "1.5")).build();

        assertThat(PodRequests.of(spec).asMap()).isEqualTo(Map.of("cpu", 1L, "memory", 2L));
    }

    @Test
    void countsEphemeralStorageLikeAnyOtherResource() {
        Container scratch = new ContainerBuilder().withName("c").withNewResources()
                .addToRequests("ephemeral-storage", new Quantity("10Gi")).endResources().build();
        PodSpec spec = new PodSpecBuilder().withContainers(scratch, container("1", "1Gi")).build();

        assertThat(PodRequests.of(spec).asMap())
                .isEqualTo(Map.of("cpu", 1000L, "memory", GI, "ephemeral-storage", 10 * GI));
    }
}
