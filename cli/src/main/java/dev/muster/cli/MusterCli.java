package dev.muster.cli;

import dev.muster.cli.local.LocalCommand;
import dev.muster.support.jvm.CommonPoolParallelism;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.time.Clock;
import java.util.Arrays;
import java.util.Set;

/**
 * {@code muster jobs|pg|queues|describe|suspend|resume|delete|logs|completion|convert ...}: Muster's Jobs, PodGroups and
 * Queues on any cluster, through the current kubeconfig as kubectl reads it. Runs without Spring, so that each
 * command starts quickly.
 *
 * <p>Exit codes: 0 when done, 1 when an object is not found or a call fails (with a message naming it),
 * 2 for a usage error.
 */
@Command(name = "muster",
        description = "Muster's Jobs, PodGroups and Queues on the cluster of the current kubeconfig context.",
        subcommands = {JobsCommand.class, PodGroupsCommand.class, QueuesCommand.class, DescribeCommand.class,
                SuspendCommand.class, ResumeCommand.class, DeleteCommand.class, LogsCommand.class, CompletionCommand.class,
                ConvertCommand.class},
        footer = {"", "Exit codes: 0 done, 1 not found or a failed call, 2 usage error."})
public final class MusterCli {
    /** The first arguments of this command tree; {@code local} is {@link LocalCommand}'s, started apart. */
    public static final Set<String> COMMANDS = Set.of("jobs", "pg", "queues", "q", "describe", "suspend", "resume", "delete", "logs",
            "completion", "convert");

    // Help only, inherited by every subcommand: there is no version to print apart from the jar's.
    @Option(names = {"-h", "--help"}, usageHelp = true, scope = ScopeType.INHERIT, description = "Shows this help.")
    boolean help;

    final PrintWriter out;
    final PrintWriter err;
    final Clock clock;

    private MusterCli(PrintWriter out, PrintWriter err, Clock clock) {
        this.out = out;
        this.err = err;
        this.clock = clock;
    }

    /**
     * The {@code ./muster} jar's entry point: {@code local ...} runs the whole of Muster on an embedded local
     * cluster, with the manager's own logging; anything else is this command tree, run quietly. Exits the JVM
     * with the command's exit code.
     */
    public static void main(String[] args) {
        CommonPoolParallelism.atLeastTwo();
        if (args.length > 0 && args[0].equals("local")) {
            System.exit(LocalCommand.run(Arrays.copyOfRange(args, 1, args.length), System.out, System.err));
        }
        quietLogging();
        System.exit(run(args, System.out, System.err, Clock.systemUTC()));
    }

    /** Runs one command; returns its exit code. Ages are measured against {@code clock}. */
    public static int run(String[] args, PrintStream out, PrintStream err, Clock clock) {
        return run(args, out, err, clock, ClusterSources.ofThisProcess());
    }

    /** Runs one command with the cluster found, when no {@code --kubeconfig} is given, through {@code sources}. */
    static int run(String[] args, PrintStream out, PrintStream err, Clock clock, ClusterSources sources) {
        CommandLine cli = commandLine(out, err, clock, sources);
        try {
            return cli.execute(args);
        } finally {
            // Autoflush flushes println only; YAML, logs and the completion script are printed whole.
            cli.getOut().flush();
            cli.getErr().flush();
        }
    }

    /** The command tree, writing to {@code out} and {@code err}. */
    static CommandLine commandLine(PrintStream out, PrintStream err, Clock clock, ClusterSources sources) {
        MusterCli root = new MusterCli(new PrintWriter(out, true), new PrintWriter(err, true), clock);
        CommandLine.IFactory defaults = CommandLine.defaultFactory();
        CommandLine cli = new CommandLine(root, new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> type) throws Exception {
                return type == ClusterOptions.class ? type.cast(new ClusterOptions(sources)) : defaults.create(type);
            }
        });
        cli.setOut(root.out);
        cli.setErr(root.err);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            // A CliException is written for the user, lines and all.
            root.err.println("error: " + (e instanceof CliException ? e.getMessage() : message(e)));
            return 1;
        });
        return cli;
    }

    /**
     * The API server's own words when it answered; otherwise the client's (which names the operation, kind,
     * name and namespace) with the root cause, e.g. a refused connection to the cluster's address.
     */
    private static String message(Exception e) {
        if (e instanceof KubernetesClientException k && k.getStatus() != null && k.getStatus().getMessage() != null) {
            return k.getStatus().getMessage() + " (HTTP " + k.getCode() + ")";
        }
        Throwable root = e;
        Throwable network = null;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
            if (network == null && (root instanceof ConnectException || root instanceof UnknownHostException)) {
                network = root;
            }
        }
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        return (root == e ? message : message.replaceAll("\\.$", "") + ": " + reason(network != null ? network : root))
                .replaceAll("\\s+", " ");
    }

    /**
     * What went wrong, for the end of the line. The JDK's HTTP client reports a refused connection as a
     * {@code ConnectException} with no message around a {@code ClosedChannelException}, which says nothing to a user.
     */
    private static String reason(Throwable cause) {
        if (cause instanceof ConnectException && cause.getMessage() == null) {
            return cause.getClass().getName() + ": the API server refused the connection or cannot be reached";
        }
        return cause.toString();
    }

    /**
     * Without Spring Boot, logback's default configuration prints every DEBUG line of the Kubernetes client
     * into the command's output. Its warning that Muster's API versions are alpha would open every listing.
     */
    private static void quietLogging() {
        if (LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME) instanceof ch.qos.logback.classic.Logger root) {
            root.setLevel(ch.qos.logback.classic.Level.WARN);
            root.getLoggerContext().getLogger(VersionUsageUtils.class).setLevel(ch.qos.logback.classic.Level.OFF);
        }
    }
}
