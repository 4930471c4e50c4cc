package dev.muster.local.autoscaler;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NodeGroupTest {
    @Test
    void parsesTheIssuesExample() {
        NodeGroup group = NodeGroup.parse("gpu=0..8:cpu=32,memory=256Gi,nvidia.com/gpu=8,delay=10s");
        assertThat(group.name()).isEqualTo("gpu");
        assertThat(group.min()).isZero();
        assertThat(group.max()).isEqualTo(8);
        assertThat(group.capacity()).containsEntry("cpu", new Quantity("32"))
                .containsEntry("memory", new Quantity("256Gi")).containsEntry("nvidia.com/gpu", new Quantity("8"))
                .containsEntry("pods", new Quantity("110"));
        assertThat(group.delay()).isEqualTo(Duration.ofSeconds(10));
        assertThat(group.fail()).isFalse();
        assertThat(group.labels()).isEmpty();
    }

    @Test
    void parsesLabelsFailureAndPods() {
        NodeGroup group = NodeGroup.parse("cpu-pool=1..3:cpu=8,memory=32Gi,pods=20,label.pool=batch,fail=true");
        assertThat(group.labels()).containsExactlyEntriesOf(java.util.Map.of("pool", "batch"));
        assertThat(group.capacity()).containsEntry("pods", new Quantity("20"));
        assertThat(group.fail()).isTrue();
        assertThat(group.delay()).isZero();
    }

    @Test
    void aNodeOfTheGroupCarriesItsNameLabelsAndCapacity() {
        NodeGroup group = NodeGroup.parse("cpu-pool=1..3:cpu=8,memory=32Gi,label.pool=batch");

        Node node = group.node(2);

        assertThat(node.getMetadata().getName()).isEqualTo("cpu-pool-2");
        assertThat(node.getMetadata().getLabels()).containsEntry(NodeGroup.GROUP_LABEL, "cpu-pool")
                .containsEntry("pool", "batch");
        assertThat(node.getStatus().getCapacity()).isEqualTo(group.capacity());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "gpu:cpu=1,memory=1Gi | is not name=min..max",
            "gpu=2..1:cpu=1,memory=1Gi | needs 0 <= min <= max",
            "gpu=0..0:cpu=1,memory=1Gi | max >= 1",
            "GPU=0..1:cpu=1,memory=1Gi | is not a DNS label",
            "gpu=0..1:cpu=lots,memory=1Gi | cpu=lots in 'gpu=0..1:cpu=lots,memory=1Gi' is not a quantity",
            "gpu=0..1:cpu=-1,memory=1Gi | cpu=-1 in 'gpu=0..1:cpu=-1,memory=1Gi' is negative",
            "gpu=0..1:cpu=1,memory=1Gi,delay=soon | delay=soon in 'gpu=0..1:cpu=1,memory=1Gi,delay=soon' is not a duration",
            "gpu=0..1:cpu=1,memory=1Gi,fail=yes | fail=yes in 'gpu=0..1:cpu=1,memory=1Gi,fail=yes' must be true or false",
            "gpu=0..1:cpu=1 | capacity needs cpu and memory",
            "gpu=0..1:cpu=1,memory | 'memory' in 'gpu=0..1:cpu=1,memory' is not key=value",
            "gpu=0..99999999999:cpu=1,memory=1Gi | min and max must be small whole numbers"})
    void refusesABadSpecSayingWhatIsWrong(String spec, String problem) {
        assertThatThrownBy(() -> NodeGroup.parse(spec)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(problem);
    }

    @Test
    void groupNamesAreUniqueAndTimingsPositive() {
        NodeGroup group = NodeGroup.parse("gpu=0..1:cpu=1,memory=1Gi");
        assertThatThrownBy(() -> AutoscalerConfig.NONE.withNodeGroups(java.util.List.of(group, group)))
                .hasMessageContaining("node group gpu is given twice");
        assertThatThrownBy(() -> AutoscalerConfig.NONE.withScaleDownDelay(Duration.ZERO))
                .hasMessageContaining("scaleDownDelay must be positive");
    }
}
