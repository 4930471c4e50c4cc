package dev.muster.scheduler;

import dev.muster.api.batch.v1alpha1.validation.FieldError;
import dev.muster.api.scheduling.v1alpha1.QueueCondition;
import dev.muster.api.scheduling.v1alpha1.QueueStatus;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.queue.QueueStanding;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A Queue's status from its standing; the writing itself is tested against the local cluster. */
class QueueStatusWriterTest {
    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    private static final QueueStanding STANDING = new QueueStanding("a",
            ResourceVector.builder().cpuMillis(1500).memoryBytes(16L << 30).set("nvidia.com/gpu", 8).build(),
            ResourceVector.builder().set("nvidia.com/gpu", 8).build(),
            ResourceVector.builder().cpuMillis(4000).set("nvidia.com/gpu", 32).build(), 1.0, 6, 2);

    @Test
    void amountsAreResourceListsAndCountsAreGangs() {
        QueueStatus status = QueueStatusWriter.status(STANDING, List.of(), null, NOW);

        assertThat(status.getAllocated()).isEqualTo(Map.of("cpu", new Quantity("1500m"), "memory", new Quantity("16Gi"),
                "nvidia.com/gpu", new Quantity("8")));
        assertThat(status.getFairShare()).isEqualTo(Map.of("nvidia.com/gpu", new Quantity("8")));
        assertThat(status.getDemand()).isEqualTo(Map.of("cpu", new Quantity("4"), "nvidia.com/gpu", new Quantity("32")));
        assertThat(status.getPending()).isEqualTo(6);
        assertThat(status.getRunning()).isEqualTo(2);
        assertThat(status.getConditions()).singleElement().satisfies(c -> {
            assertThat(c.getType()).isEqualTo(QueueCondition.VALID);
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getLastTransitionTime()).isEqualTo("2026-01-01T12:00:00Z");
        });
    }

    @Test
    void validKeepsItsTransitionTimeWhileItHoldsAndAChangeOfItIsNotACounterChange() {
        QueueStatus before = QueueStatusWriter.status(STANDING, List.of(), null, NOW.minusSeconds(3600));
        QueueStatus same = QueueStatusWriter.status(STANDING, List.of(), before, NOW);
        QueueStatus invalid = QueueStatusWriter.status(STANDING,
                List.of(new FieldError("spec.parent", "queue 'org' does not exist")), before, NOW);

        assertThat(same.getConditions().get(0).getLastTransitionTime()).isEqualTo("2026-01-01T11:00:00Z");
        assertThat(invalid.getConditions()).singleElement().satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getMessage()).contains("spec.parent").contains("org");
            assertThat(c.getLastTransitionTime()).isEqualTo("2026-01-01T12:00:00Z");
        });
        assertThat(QueueStatusWriter.countersOnly(before, same)).isTrue();
        assertThat(QueueStatusWriter.countersOnly(before, invalid)).isFalse();
    }

    /**
     * A first {@code Valid} condition is a change over a status with no conditions, whether the list is
     * absent or empty: it is written at once and logged, not paced as a counter change.
     */
    @Test
    void aFirstConditionIsAChangeOverNoneAndOverAnEmptyList() {
        QueueCondition valid = QueueCondition.valid(List.of());
        assertThat(QueueStatusWriter.sameConditions(List.of(), List.of(valid))).isFalse();
        assertThat(QueueStatusWriter.sameConditions(null, List.of(valid))).isFalse();
        assertThat(QueueStatusWriter.sameConditions(List.of(valid), List.of())).isFalse();
        assertThat(QueueStatusWriter.sameConditions(null, List.of())).isTrue();
        assertThat(QueueStatusWriter.sameConditions(List.of(valid), List.of(QueueCondition.valid(List.of())))).isTrue();
    }
}
