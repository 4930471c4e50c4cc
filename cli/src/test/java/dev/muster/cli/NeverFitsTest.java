package dev.muster.cli;

import dev.muster.api.batch.v1alpha1.TaskSpec;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class NeverFitsTest {
    private static final List<Node> NODES = List.of(node("8", "32Gi", "8"), node("16", "64Gi", "4"), node("4", "8Gi", null));

    @Test
    void aPodAskingMoreThanTheLargestNodeOfOneResourceCanNeverRun() {
        assertThat(NeverFits.reasons(List.of(task("worker", "2", "8Gi", "16")), NODES))
                .containsExactly("each worker pod asks for 16 nvidia.com/gpu, the largest node has 8");
    }

    @Test
    void theLargestNodeIsTakenPerResource() {
        // 16 cpu on one node and 8 GPUs on another: each fits some node by itself.
        assertThat(NeverFits.reasons(List.of(task("worker", "16", "64Gi", "8")), NODES)).isEmpty();
    }

    @Test
    void everyTaskAndResourceThatCannotFitIsNamed() {
        assertThat(NeverFits.reasons(List.of(task("ps", "1", "1Gi", null), task("worker", "500m", "65Gi", null),
                task("big", "17", "1Gi", null)), List.of(node("16", "64Gi", null))))
                .containsExactly("each worker pod asks for 65Gi memory, the largest node has 64Gi",
                        "each big pod asks for 17 cpu, the largest node has 16");
    }

    @Test
    void aResourceNoNodeHas() {
        assertThat(NeverFits.reasons(List.of(task("worker", "1", "1Gi", "1")), List.of(node("16", "64Gi", null))))
                .containsExactly("each worker pod asks for 1 nvidia.com/gpu, no node has any");
    }

    private static TaskSpec task(String name, String cpu, String memory, String gpus) {
        var container = new ContainerBuilder().withName("main").withNewResources()
                .addToRequests("cpu", new Quantity(cpu)).addToRequests("memory", new Quantity(memory))
                .endResources().build();
        if (gpus != null) {
            container.getResources().getRequests().put("nvidia.com/gpu", new Quantity(gpus));
        }
        TaskSpec task = new TaskSpec();
        task.setName(name);
        task.setTemplate(new PodTemplateSpecBuilder().withNewSpec().withContainers(container).endSpec().build());
        return task;
    }

    private static Node node(String cpu, String memory, String gpus) {
        var allocatable = new HashMap<>(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory)));
        if (gpus != null) {
            allocatable.put("nvidia.com/gpu", new Quantity(gpus));
        }
        return new NodeBuilder().withNewStatus().withAllocatable(allocatable).endStatus().build();
    }
}
