package dev.muster.api.scheduling.v1alpha1;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PodGroupDefaultsTest {

    @Test
    void minMemberDefaultsToOneAndIsAtLeastOne() {
        assertThat(PodGroupDefaults.minMember(null)).isEqualTo(1);
        assertThat(PodGroupDefaults.minMember(new PodGroupSpec())).isEqualTo(1);
        assertThat(PodGroupDefaults.minMember(spec(0))).isEqualTo(1);
        assertThat(PodGroupDefaults.minMember(spec(5))).isEqualTo(5);
    }

    /**
     * Volcano's scheduler ({@code pkg/scheduler/api/job_info.go}, {@code CheckTaskValid} and its siblings)
     * skips every per-task check when the group's minMember is below the sum of its minTaskMember.
     */
    @Test
    void taskMinimumsBindOnlyWhenMinMemberCoversTheirSum() {
        Map<String, Integer> tasks = Map.of("ps", 1, "worker", 6);

        assertThat(PodGroupDefaults.enforcedMinTaskMember(3, tasks)).as("elastic").isEmpty();
        assertThat(PodGroupDefaults.enforcedMinTaskMember(6, tasks)).as("elastic by one").isEmpty();
        assertThat(PodGroupDefaults.enforcedMinTaskMember(7, tasks)).isEqualTo(tasks);
        assertThat(PodGroupDefaults.enforcedMinTaskMember(9, tasks)).isEqualTo(tasks);
        assertThat(PodGroupDefaults.enforcedMinTaskMember(1, Map.of())).isEmpty();
    }

    private static PodGroupSpec spec(int minMember) {
        PodGroupSpec spec = new PodGroupSpec();
        spec.setMinMember(minMember);
        return spec;
    }
}
