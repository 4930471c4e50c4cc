package dev.muster.local;

import org.junit.jupiter.api.Tag;
import java.nio.file.Path;

/** The smoke tests with kubectl 1.35, whose client-go watches through streaming lists (WatchList) by default. */
@Tag("emulator")
class KubectlV135SmokeTest extends KubectlSmokeTests {
    @Override
    Path kubectlExecutable() {
        return Kubectls.v135();
    }
}
