package dev.muster.local;

import org.junit.jupiter.api.Tag;
import java.nio.file.Path;

/** The smoke tests with the kubectl on the PATH (Debian's {@code kubernetes-client} in CI). */
@Tag("emulator")
class KubectlSmokeTest extends KubectlSmokeTests {
    @Override
    Path kubectlExecutable() {
        return Kubectls.onPath();
    }
}
