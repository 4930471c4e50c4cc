package dev.muster.local;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./mvnw -Pfast test} leaves out the test classes tagged {@code emulator}; this keeps the tag true for every
 * module's tests. A test class runs on the emulator when it, or a test helper it names, starts a local cluster
 * (directly, or through another such helper); each of those must carry {@code @Tag("emulator")}, or the fast loop
 * would quietly start clusters again.
 */
class EmulatorTagTest {
    private static final Path ROOT = Path.of("..");
    private static final Pattern STARTS_A_CLUSTER = Pattern.compile("LocalCluster\\.start\\(|new LocalCluster\\(|LocalCommand\\.run\\(");
    private static final String TAG = "@Tag(\"emulator\")";

    @Test
    void everyTestClassThatRunsOnTheEmulatorIsTaggedSo() throws IOException {
        Map<Path, String> sources = testSources();
        Set<Path> onEmulator = new HashSet<>();
        sources.forEach((file, text) -> {
            if (STARTS_A_CLUSTER.matcher(text).find()) {
                onEmulator.add(file);
            }
        });
        // Widen through helpers (the non-test classes among them) until nothing new names one.
        int before;
        do {
            before = onEmulator.size();
            Set<String> helpers = onEmulator.stream().map(EmulatorTagTest::className)
                    .filter(name -> !name.endsWith("Test")).collect(Collectors.toSet());
            if (helpers.isEmpty()) {
                break;
            }
            Pattern namesAHelper = Pattern.compile("\\b(" + String.join("|", helpers) + ")\\b");
            sources.forEach((file, text) -> {
                if (namesAHelper.matcher(text).find()) {
                    onEmulator.add(file);
                }
            });
        } while (onEmulator.size() > before);

        List<String> untagged = onEmulator.stream()
                .filter(file -> className(file).endsWith("Test") && !sources.get(file).contains("abstract class"))
                .filter(file -> !sources.get(file).contains(TAG))
                .map(file -> ROOT.relativize(file).toString()).sorted().toList();

        assertThat(onEmulator).as("the scan finds the emulator's own tests").contains(
                ROOT.resolve("local-cluster/src/test/java/dev/muster/local/LocalClusterTest.java"));
        assertThat(untagged).as("test classes that start a local cluster without " + TAG).isEmpty();
    }

    private static Map<Path, String> testSources() throws IOException {
        Map<Path, String> sources = new TreeMap<>();
        try (Stream<Path> modules = Files.list(ROOT)) {
            for (Path tests : modules.map(m -> m.resolve("src/test/java")).filter(Files::isDirectory).toList()) {
                try (Stream<Path> files = Files.walk(tests)) {
                    files.filter(f -> f.toString().endsWith(".java")).forEach(f -> sources.put(f, read(f)));
                }
            }
        }
        return sources;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String className(Path file) {
        String name = file.getFileName().toString();
        return name.substring(0, name.length() - ".java".length());
    }
}
