package dev.muster.cli;

import dev.muster.local.server.ClusterAccess;
import dev.muster.local.LocalCluster;
import dev.muster.local.manifest.ManifestLoader;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;

/**
 * Runs {@code muster} commands in-process against a local cluster through a kubeconfig file, as a user's
 * shell does. The clock stands {@link #AGE} and half a day after the runner was made, so that whatever a
 * test makes in its first twelve hours is between 3 and 3.5 days old: every age prints as {@code 3d}.
 */
final class CliRunner {
    /** How old everything made during a test looks to the commands. */
    static final Duration AGE = Duration.ofDays(3);

    private final Path kubeconfig;
    /** The bearer token in the kubeconfig, of a user the local cluster knows. */
    final String token;
    private final Clock clock = Clock.fixed(Instant.now().plus(AGE).plus(Duration.ofHours(12)), ZoneOffset.UTC);

    CliRunner(LocalCluster cluster, Path dir) {
        // With a token the cluster knows, which describe --manager-url passes on to the manager.
        token = cluster.access().mintToken(new ClusterAccess.User("cli-user", List.of("system:authenticated")));
        kubeconfig = cluster.writeKubeconfig(dir.resolve("kubeconfig"), token);
    }

    /** What a command printed and its exit code. */
    record Result(int exit, String out, String err) {
    }

    /** Runs {@code muster ARGS --kubeconfig FILE}. */
    Result run(String... args) {
        String[] all = Arrays.copyOf(args, args.length + 2);
        all[args.length] = "--kubeconfig";
        all[args.length + 1] = kubeconfig.toString();
        return runAsTyped(all);
    }

    /** Runs {@code muster ARGS} exactly as given. */
    Result runAsTyped(String... args) {
        return runIn(ClusterSources.ofThisProcess(), args);
    }

    /** Runs {@code muster ARGS} exactly as given, in a shell whose environment is {@code sources}. */
    Result runIn(ClusterSources sources, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = MusterCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), clock, sources);
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Creates the objects of a YAML document, as {@code ./muster local} applies its files. */
    static void apply(LocalCluster cluster, Path dir, String yaml) throws Exception {
        Path file = Files.writeString(Files.createTempFile(dir, "manifest", ".yaml"), yaml);
        ManifestLoader.load(List.of(file)).forEach(m -> cluster.client().resource(m.object()).create());
    }
}
