package dev.muster.cli;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/** Where to connect, as kubectl takes it: {@code --kubeconfig}, {@code --context}, {@code -n}. */
final class ClusterOptions {
    @Option(names = "--kubeconfig", paramLabel = "FILE",
            description = "Kubeconfig file (default: $KUBECONFIG, else ~/.kube/config).")
    Path kubeconfig;
    @Option(names = "--context", paramLabel = "NAME", description = "Kubeconfig context (default: the current one).")
    String context;
    @Option(names = {"-n", "--namespace"}, paramLabel = "NS",
            description = "Namespace (default: the context's, else default).")
    String namespace;

    private final ClusterSources sources;

    ClusterOptions(ClusterSources sources) {
        this.sources = sources;
    }

    /**
     * A client for the chosen context; the caller closes it.
     *
     * @throws CliException if no {@code --kubeconfig} is given and the environment names no cluster either
     */
    KubernetesClient connect() {
        if (kubeconfig == null) {
            sources.noCluster().ifPresent(message -> {
                throw new CliException(message);
            });
        }
        Config config = kubeconfig == null ? Config.autoConfigure(context) : Config.fromKubeconfig(context, kubeconfig.toFile());
        // A command line reports an unreachable cluster at once; the client's default retries back off for
        // about a minute first.
        config.setRequestRetryBackoffLimit(0);
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    /** The namespace to act in: {@code -n}, else the context's, else {@code default}. */
    String namespace(KubernetesClient client) {
        if (namespace != null) {
            return namespace;
        }
        return client.getNamespace() == null ? "default" : client.getNamespace();
    }
}
