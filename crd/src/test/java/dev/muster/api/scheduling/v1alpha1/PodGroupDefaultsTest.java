package dev.muster.api.scheduling.v1alpha1;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PodGroupDefaultsTest {

    @Test
    void minMemberDefaultsToOneAndIsAtLeastOne() {
        assertThat(PodGroupDefaults.minMember(null)).isEqualTo(1);
        assertThat(PodGroupDefaults.minMember(new PodGroupSpec())).isEqualTo(1);
        assertThat(PodGroupDefaults.minMember(spec(0))).isEqualTo(1);
        assertThat(PodGroupDefaults.minMember(spec(5))).isEqualTo(5);
    }

    private static PodGroupSpec spec(int minMember) {
        PodGroupSpec spec = new PodGroupSpec();
        spec.setMinMember(minMember);
        return spec;
    }
}
