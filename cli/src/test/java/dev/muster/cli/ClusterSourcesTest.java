package dev.muster.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Where the client finds a cluster without {@code --kubeconfig}, as fabric8 and kubectl look. */
class ClusterSourcesTest {
    @TempDir
    Path dir;

    private ClusterSources in(Map<String, String> environment) {
        return new ClusterSources(environment::get, dir.resolve("home"), dir.resolve("work"));
    }

    @Test
    void aKubeconfigFileAMasterUrlOrAPodsServiceAccountIsACluster() throws IOException {
        Path file = Files.writeString(dir.resolve("config"), "apiVersion: v1\nkind: Config\n");

        assertThat(in(Map.of("KUBECONFIG", "/nowhere:" + file)).noCluster()).as("one file of the list exists").isEmpty();
        assertThat(in(Map.of("KUBERNETES_MASTER", "https://10.0.0.1:6443")).noCluster()).isEmpty();
        assertThat(in(Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1")).noCluster()).isEmpty();
        assertThat(in(Map.of()).noCluster()).isPresent();

        Files.createDirectories(dir.resolve("home/.kube"));
        Files.copy(file, dir.resolve("home/.kube/config"));
        assertThat(in(Map.of()).noCluster()).as("~/.kube/config").isEmpty();
    }

    @Test
    void aLocalKubeconfigWhoseServerDoesNotAnswerIsNamedAsNotRunning() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        Path local = dir.resolve("work/.muster/local/kubeconfig");
        Files.createDirectories(local.getParent());
        Files.writeString(local, """
                apiVersion: v1
                kind: Config
                clusters: [{name: local, cluster: {server: "http://127.0.0.1:%d"}}]
                contexts: [{name: local, context: {cluster: local, user: local}}]
                users: [{name: local, user: {}}]
                current-context: local
                """.formatted(closedPort));

        assertThat(in(Map.of()).noCluster()).hasValueSatisfying(message -> assertThat(message).endsWith(
                "\nThe local cluster of ./muster local wrote " + local.toAbsolutePath()
                        + " but does not answer now; start it with ./muster local, then add --kubeconfig "
                        + local.toAbsolutePath()));
    }
}
