package dev.muster.scheduler.core.model;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MissingPodGroupTest {

    @Test
    void saysWhichPodGroupIsMissing() {
        MissingPodGroup missing = new MissingPodGroup(GroupKey.podGroup("default", "nginx"), List.of());

        assertThat(missing.message()).isEqualTo("pod group \"default/nginx\" not found");
    }

    @Test
    void aGangOfOneCannotMissItsGroup() {
        assertThatThrownBy(() -> new MissingPodGroup(GroupKey.standalonePod("default", "solo"), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
