package dev.muster.api.scheduling.v1alpha1;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class QueueDefaultsTest {

    @Test
    void unsetFieldsTakeTheDocumentedDefaults() {
        for (QueueSpec spec : new QueueSpec[] {null, new QueueSpec()}) {
            assertThat(QueueDefaults.weight(spec)).isEqualTo(1);
            assertThat(QueueDefaults.guarantee(spec)).isEmpty();
            assertThat(QueueDefaults.limit(spec)).isEmpty();
            assertThat(QueueDefaults.open(spec)).isTrue();
            assertThat(QueueDefaults.preemptsWithinQueue(spec)).isTrue();
            assertThat(QueueDefaults.reclaims(spec)).isTrue();
            assertThat(QueueDefaults.reclaimDelay(spec)).isEqualTo(Duration.ofSeconds(30));
        }
    }

    @Test
    void setFieldsAreRead() {
        QueueSpec spec = new QueueSpec();
        spec.setWeight(3);
        spec.setState(QueueSpec.CLOSED);
        QueuePreemptionSpec preemption = new QueuePreemptionSpec();
        preemption.setWithinQueue(QueuePreemptionSpec.NEVER);
        preemption.setReclaim(false);
        preemption.setReclaimDelay("2m");
        spec.setPreemption(preemption);

        assertThat(QueueDefaults.weight(spec)).isEqualTo(3);
        assertThat(QueueDefaults.open(spec)).isFalse();
        assertThat(QueueDefaults.preemptsWithinQueue(spec)).isFalse();
        assertThat(QueueDefaults.reclaims(spec)).isFalse();
        assertThat(QueueDefaults.reclaimDelay(spec)).isEqualTo(Duration.ofMinutes(2));
    }
}
