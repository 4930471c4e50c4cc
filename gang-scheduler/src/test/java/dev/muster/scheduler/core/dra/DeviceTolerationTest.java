package dev.muster.scheduler.core.dra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Tolerations match device taints as Kubernetes matches a toleration to a taint. */
class DeviceTolerationTest {
    private static final DeviceTaint UNHEALTHY = new DeviceTaint("gpu.example.com/unhealthy", "ecc", "NoSchedule");

    @Test
    void equalNeedsKeyAndValueExistsOnlyTheKeyAnEmptyKeyWithExistsEverything() {
        assertThat(new DeviceToleration("gpu.example.com/unhealthy", "Equal", "ecc", "", null).tolerates(UNHEALTHY)).isTrue();
        assertThat(new DeviceToleration("gpu.example.com/unhealthy", null, "ecc", null, null).tolerates(UNHEALTHY))
                .as("Equal is the default operator").isTrue();
        assertThat(new DeviceToleration("gpu.example.com/unhealthy", "Equal", "thermal", "", null).tolerates(UNHEALTHY)).isFalse();
        assertThat(new DeviceToleration("gpu.example.com/unhealthy", "Exists", "", "", null).tolerates(UNHEALTHY)).isTrue();
        assertThat(new DeviceToleration("gpu.example.com/other", "Exists", "", "", null).tolerates(UNHEALTHY)).isFalse();
        assertThat(new DeviceToleration("", "Exists", "", "", null).tolerates(UNHEALTHY)).isTrue();
    }

    @Test
    void anEffectMatchesOnlyThatEffect() {
        assertThat(new DeviceToleration("", "Exists", "", "NoSchedule", null).tolerates(UNHEALTHY)).isTrue();
        assertThat(new DeviceToleration("", "Exists", "", "NoExecute", null).tolerates(UNHEALTHY)).isFalse();
    }

    @Test
    void onlyNoScheduleAndNoExecuteTaintsKeepADeviceFromARequestThatDoesNotTolerateThem() {
        assertThat(UNHEALTHY.blocksAllocation()).isTrue();
        assertThat(new DeviceTaint("k", "", "NoExecute").blocksAllocation()).isTrue();
        assertThat(new DeviceTaint("k", "", "None").blocksAllocation()).isFalse();

        Device device = new Device("gpu.example.com", "n", "gpu-0", null, null,
                List.of(UNHEALTHY, new DeviceTaint("maintenance", "", "None")), false, false, false);
        assertThat(device.tolerated(List.of())).isFalse();
        assertThat(device.tolerated(List.of(new DeviceToleration("gpu.example.com/unhealthy", "Exists", "", "", null))))
                .as("the None taint needs no toleration").isTrue();
    }
}
