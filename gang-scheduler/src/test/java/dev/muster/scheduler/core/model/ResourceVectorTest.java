package dev.muster.scheduler.core.model;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResourceVectorTest {

    @Test
    void equalAmountsAreEqualWhateverResourcesWereNamedWithZero() {
        ResourceVector a = ResourceVector.builder().cpuMillis(500).set("example.com/foo", 0).build();
        ResourceVector b = ResourceVector.of(Map.of("cpu", 500L));

        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a.asMap()).containsExactly(Map.entry("cpu", 500L));
    }

    @Test
    void sumsAndMaximaWorkAcrossResources() {
        ResourceVector gpu = ResourceVector.builder().cpuMillis(100).set("nvidia.com/gpu", 2).build();
        ResourceVector memory = ResourceVector.builder().cpuMillis(300).memoryBytes(1024).build();

        assertThat(gpu.plus(memory).asMap())
                .isEqualTo(Map.of("cpu", 400L, "memory", 1024L, "nvidia.com/gpu", 2L));
        assertThat(gpu.max(memory).asMap())
                .isEqualTo(Map.of("cpu", 300L, "memory", 1024L, "nvidia.com/gpu", 2L));
    }

    @Test
    void rejectsNegativeAmounts() {
        assertThatThrownBy(() -> ResourceVector.builder().memoryBytes(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
