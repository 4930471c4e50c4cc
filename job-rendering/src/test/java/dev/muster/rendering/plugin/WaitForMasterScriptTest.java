package dev.muster.rendering.plugin;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pytorch plugin's wait-for-master script run for real by bash (whose {@code /dev/tcp} it falls back to
 * where there is no {@code nc}) against a port on this machine.
 */
class WaitForMasterScriptTest {
    @Test
    void returnsOnceTheMasterPortAcceptsConnections() throws Exception {
        try (ServerSocket master = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Run run = bash(PyTorchPodPlugin.waitScript("127.0.0.1", master.getLocalPort(), 30));
            assertThat(run.exit()).as(run.output()).isZero();
            assertThat(run.output()).contains("the master at 127.0.0.1:" + master.getLocalPort() + " accepts connections");
        }
    }

    @Test
    void failsNamingTheMasterWhenTheTimeoutPasses() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        Run run = bash(PyTorchPodPlugin.waitScript("127.0.0.1", closed, 0));
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.output()).contains("the master at 127.0.0.1:" + closed + " did not accept connections within 0s");
    }

    private record Run(int exit, String output) {
    }

    private static Run bash(String script) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("bash", "-c", script).redirectErrorStream(true).start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the script finished").isTrue();
        return new Run(process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }
}
