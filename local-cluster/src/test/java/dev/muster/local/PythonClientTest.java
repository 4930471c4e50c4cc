package dev.muster.local;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The local cluster through the Kubernetes Python client, Debian's {@code python3-kubernetes} (installed by
 * {@code .ci/run}): a strict typed client that refuses answers missing a field the API requires, and writes objects
 * without {@code apiVersion} and {@code kind} unless told them. The checks are in {@code python-client/check.py};
 * each prints its verdict. Without the client the test is skipped, and fails where {@code CI=true}.
 */
@Tag("emulator")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PythonClientTest {
    /** Debian's interpreter, for which its package installs the client (a python3 earlier on the PATH may lack it). */
    private static final Path PYTHON = Path.of("/usr/bin/python3");
    private static final String NAMESPACE = "python";
    private static final List<String> CHECKS = List.of("discovery", "create a pod without apiVersion or kind",
            "refuse a body of another version or kind", "typed lists of built-in kinds", "nodes as a kubelet reports them",
            "bind a pod", "leader election on a Lease", "watch from a list's resourceVersion", "events by field selector",
            "events.k8s.io/v1 Events are core Events", "custom objects", "access review");

    private LocalCluster cluster;
    private Path kubeconfig;

    @BeforeAll
    void startCluster(@TempDir Path dir) {
        requirePythonClient();
        cluster = LocalCluster.start(Fixtures.FAST.withNodes(1));
        cluster.client().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE)
                .endMetadata().build()).create();
        kubeconfig = cluster.writeKubeconfig(dir.resolve("kubeconfig"));
    }

    @AfterAll
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void everyCheckPasses() throws Exception {
        Path output = kubeconfig.resolveSibling("check.out");
        Process process = new ProcessBuilder(PYTHON.toString(), script(), kubeconfig.toString(), NAMESPACE)
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        boolean finished = process.waitFor(2, TimeUnit.MINUTES);
        if (!finished) {
            process.destroyForcibly();
        }
        List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
        assertThat(finished).as("check.py finished within 2 minutes; it printed %s", lines).isTrue();
        assertThat(lines).as("check.py's verdicts (and anything else it printed)")
                .containsExactlyElementsOf(CHECKS.stream().map(check -> "ok " + check).toList());
        assertThat(process.exitValue()).isZero();
    }

    private static void requirePythonClient() {
        String problem;
        try {
            Process probe = new ProcessBuilder(PYTHON.toString(), "-c", "import kubernetes").redirectErrorStream(true)
                    .start();
            String said = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            problem = probe.waitFor(1, TimeUnit.MINUTES) && probe.exitValue() == 0 ? null
                    : "the Python client is missing (Debian: apt-get install python3-kubernetes): " + said;
        } catch (IOException e) {
            problem = PYTHON + " cannot run (Debian: apt-get install python3-kubernetes): " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        if (problem != null && "true".equalsIgnoreCase(System.getenv("CI"))) {
            fail(problem + "; with CI=true the Python client's checks must run");
        }
        assumeTrue(problem == null, problem);
    }

    private static String script() {
        try {
            return Path.of(PythonClientTest.class.getResource("/python-client/check.py").toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
