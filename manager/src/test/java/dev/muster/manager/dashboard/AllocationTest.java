package dev.muster.manager.dashboard;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static dev.muster.api.PodFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

class AllocationTest {

    @Test
    void podRequestsSumTheContainersRaisedToTheLargestInitContainerPlusOverhead() {
        Pod pod = new PodBuilder().withNewSpec()
                .withContainers(container("1", "1Gi", "2"), container("500m", "512Mi", null))
                .withInitContainers(container("4", "256Mi", null), container("250m", "1Gi", "4"))
                .withOverhead(Map.of("cpu", new Quantity("100m")))
                .endSpec().build();

        // cpu: max(1.5, 4) + 0.1; memory: max(1.5Gi, 1Gi); GPUs: max(2, 4).
        assertThat(Allocation.requests(pod)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "cpu", 4.1, "memory", 1.5 * 1024 * 1024 * 1024, "nvidia.com/gpu", 4.0));
    }


    private static Container container(String cpu, String memory, String gpus) {
        Map<String, Quantity> requests = new HashMap<>(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory)));
        if (gpus != null) {
            requests.put("nvidia.com/gpu", new Quantity(gpus));
        }
        return new ContainerBuilder().withName("c").withNewResources().withRequests(requests).endResources().build();
    }
}
