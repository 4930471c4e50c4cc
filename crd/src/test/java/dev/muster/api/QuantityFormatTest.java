package dev.muster.api;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

import static org.assertj.core.api.Assertions.assertThat;

class QuantityFormatTest {

    @Test
    void cpuInCoresOrMillicores() {
        assertThat(QuantityFormat.of("cpu", new BigDecimal("0.250"))).isEqualTo("250m");
        assertThat(QuantityFormat.of("cpu", new BigDecimal("2.000"))).isEqualTo("2");
        assertThat(QuantityFormat.of("cpu", BigDecimal.valueOf(4500, 3))).isEqualTo("4500m");
    }

    @Test
    void bytesInTheLargestBinaryUnitThatKeepsThemWhole() {
        assertThat(QuantityFormat.of("memory", BigDecimal.valueOf(1536L << 20))).isEqualTo("1536Mi");
        assertThat(QuantityFormat.of("memory", BigDecimal.valueOf(16L << 30))).isEqualTo("16Gi");
        assertThat(QuantityFormat.of("memory", BigDecimal.valueOf(1000))).isEqualTo("1000");
        assertThat(QuantityFormat.of("ephemeral-storage", BigDecimal.valueOf(100L << 30))).isEqualTo("100Gi");
        assertThat(QuantityFormat.of("hugepages-2Mi", BigDecimal.valueOf(4L << 30))).isEqualTo("4Gi");
        assertThat(QuantityFormat.of("memory", BigDecimal.valueOf(2L << 60))).isEqualTo("2Ei");
    }

    @Test
    void zeroIsPlain() {
        assertThat(QuantityFormat.of("memory", BigDecimal.ZERO)).isEqualTo("0");
        assertThat(QuantityFormat.of("cpu", BigDecimal.ZERO)).isEqualTo("0");
    }

    @Test
    void otherResourcesPlain() {
        assertThat(QuantityFormat.of("nvidia.com/gpu", BigDecimal.valueOf(8))).isEqualTo("8");
        assertThat(QuantityFormat.of("pods", BigDecimal.valueOf(110))).isEqualTo("110");
    }
}
