package dev.muster.api;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

class EffectiveRequestsTest {
    @Test
    void containersAddUp() {
        PodSpec spec = new PodSpecBuilder().withContainers(container("a", "500m", "1Gi"), container("b", "1", "512Mi")).build();

        assertThat(plain(EffectiveRequests.amounts(spec))).containsExactly(
                Map.entry("cpu", "1.5"), Map.entry("memory", String.valueOf(1536L << 20)));
    }

    @Test
    void aBiggerInitContainerSetsTheRequestSinceItRunsAlone() {
        PodSpec spec = new PodSpecBuilder().withInitContainers(container("init", "4", "1Gi"))
                .withContainers(container("a", "1", "2Gi"), container("b", "1", "2Gi")).build();

        assertThat(plain(EffectiveRequests.amounts(spec))).containsExactly(
                Map.entry("cpu", "4"), Map.entry("memory", String.valueOf(4L << 30)));
    }

    @Test
    void sidecarsAddToTheContainersAndToTheInitContainersAfterThem() {
        Container sidecar = new ContainerBuilder(container("proxy", "1", "1Gi")).withRestartPolicy("Always").build();
        PodSpec spec = new PodSpecBuilder().withInitContainers(sidecar, container("migrate", "3", "1Gi"))
                .withContainers(container("app", "1", "1Gi")).withOverhead(Map.of("cpu", new Quantity("100m"))).build();

        // migrate runs beside the sidecar: 4 cpu, more than the 2 of app with the sidecar; plus the overhead.
        assertThat(plain(EffectiveRequests.amounts(spec))).containsExactly(
                Map.entry("cpu", "4.1"), Map.entry("memory", String.valueOf(2L << 30)));
    }

    @Test
    void aLimitWithoutARequestRequestsTheLimitAndPodsCountForNothing() {
        Container limited = new ContainerBuilder().withName("gpu").withNewResources()
                .addToLimits("nvidia.com/gpu", new Quantity("2")).addToRequests("pods", new Quantity("3"))
                .endResources().build();

        assertThat(plain(EffectiveRequests.amounts(new PodSpecBuilder().withContainers(limited).build())))
                .containsExactly(Map.entry("nvidia.com/gpu", "2"));
    }

    @Test
    void limitsCountOnlyWhatIsSetWithInitPeaksSidecarsAndOverheadOnLimitedResources() {
        Container sidecar = new ContainerBuilder().withName("proxy").withRestartPolicy("Always").withNewResources()
                .addToLimits("cpu", new Quantity("1")).endResources().build();
        Container migrate = new ContainerBuilder().withName("migrate").withNewResources()
                .addToLimits("cpu", new Quantity("3")).addToLimits("memory", new Quantity("1Gi")).endResources().build();
        Container app = new ContainerBuilder(container("app", "1", "1Gi")).editResources()
                .addToLimits("cpu", new Quantity("2")).endResources().build();
        PodSpec spec = new PodSpecBuilder().withInitContainers(sidecar, migrate).withContainers(app)
                .withOverhead(Map.of("cpu", new Quantity("100m"), "ephemeral-storage", new Quantity("1Gi"))).build();

        // cpu: migrate beside the sidecar (4) beats app with the sidecar (3), plus the overhead; memory: only migrate
        // sets a limit; ephemeral-storage: no container limits it, so its overhead does not count.
        assertThat(plain(EffectiveRequests.limits(spec, EffectiveRequests.AMOUNTS))).containsExactly(
                Map.entry("cpu", "4.1"), Map.entry("memory", String.valueOf(1L << 30)));
    }

    /** Amounts as plain numbers, so that 4 and 4.000 compare equal. */
    private static Map<String, String> plain(Map<String, BigDecimal> amounts) {
        Map<String, String> plain = new TreeMap<>();
        amounts.forEach((name, amount) -> plain.put(name, amount.stripTrailingZeros().toPlainString()));
        return plain;
    }

    static Container container(String name, String cpu, String memory) {
        return new ContainerBuilder().withName(name).withNewResources()
                .addToRequests("cpu", new Quantity(cpu)).addToRequests("memory", new Quantity(memory))
                .endResources().build();
    }
}
