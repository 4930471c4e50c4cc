package dev.muster.scheduler;

import dev.muster.scheduler.core.model.ResourceVector;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

class ResourceQuantitiesTest {

    @Test
    void writesAQueueStatusAmountAsTheCommandLineShowsIt() {
        ResourceVector vector = ResourceVector.builder()
                .set(ResourceVector.CPU, 4500)
                .set(ResourceVector.MEMORY, 16L << 30)
                .set("hugepages-2Mi", 4L << 30)
                .set("nvidia.com/gpu", 8)
                .set(ResourceVector.PODS, 3)
                .build();

        // As written: Quantity's equals compares amounts, so 4294967296 would equal 4Gi.
        Map<String, String> written = new TreeMap<>();
        ResourceQuantities.toQuantities(vector).forEach((resource, quantity) -> written.put(resource, quantity.toString()));

        // Huge pages were written in plain bytes here ("4294967296") while ./muster queues showed 4Gi.
        assertThat(written).containsExactly(
                Map.entry("cpu", "4500m"),
                Map.entry("hugepages-2Mi", "4Gi"),
                Map.entry("memory", "16Gi"),
                Map.entry("nvidia.com/gpu", "8"));
    }

    @Test
    void readsBackWhatItWrites() {
        ResourceVector vector = ResourceVector.builder().set(ResourceVector.CPU, 250).set(ResourceVector.MEMORY, 1536L << 20).build();

        assertThat(ResourceQuantities.toVector(ResourceQuantities.toQuantities(vector))).isEqualTo(vector);
    }
}
