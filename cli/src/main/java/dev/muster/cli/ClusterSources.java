package dev.muster.cli;

import io.fabric8.kubernetes.client.Config;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Where the Kubernetes client would find a cluster when no {@code --kubeconfig} is given, as fabric8 and
 * kubectl look: {@code $KUBECONFIG} (or the {@code kubeconfig} system property), else {@code ~/.kube/config};
 * {@code $KUBERNETES_MASTER}; or, inside a pod, {@code $KUBERNETES_SERVICE_HOST}. With none of them the client
 * would try {@code https://kubernetes.default.svc} and fail with {@code UnknownHostException}; the command line
 * says instead how to point it at a cluster, naming the kubeconfig {@code ./muster local} writes when there is
 * one. It does not use that kubeconfig by itself: like kubectl, it talks only to the cluster it was pointed at.
 *
 * @param lookup     a system property or environment variable by its environment name ({@code KUBECONFIG})
 * @param home       the user's home directory
 * @param workingDir where {@code ./muster local} writes {@link #LOCAL_KUBECONFIG} by default
 */
record ClusterSources(UnaryOperator<String> lookup, Path home, Path workingDir) {
    /** Where {@code ./muster local} writes its kubeconfig, under the directory it runs in. */
    static final Path LOCAL_KUBECONFIG = Path.of(".muster", "local", "kubeconfig");
    private static final int PROBE_MILLIS = 500;

    /** This process's environment, as the Kubernetes client reads it. */
    static ClusterSources ofThisProcess() {
        return new ClusterSources(name -> {
            String property = System.getProperty(name.toLowerCase().replace('_', '.'));
            return property != null ? property : System.getenv(name);
        }, Path.of(System.getProperty("user.home")), Path.of("").toAbsolutePath());
    }

    /** Why there is no cluster to talk to and how to name one, or empty if the client has somewhere to go. */
    Optional<String> noCluster() {
        if (set("KUBERNETES_MASTER") || set("KUBERNETES_SERVICE_HOST")) {
            return Optional.empty();
        }
        String kubeconfigVariable = lookup.apply("KUBECONFIG");
        String looked;
        if (kubeconfigVariable != null && !kubeconfigVariable.isBlank()) {
            if (Arrays.stream(kubeconfigVariable.split(File.pathSeparator)).anyMatch(f -> Files.isRegularFile(Path.of(f)))) {
                return Optional.empty();
            }
            looked = "$KUBECONFIG (" + kubeconfigVariable + ") names no file that exists";
        } else {
            Path defaultFile = home.resolve(".kube").resolve("config");
            if (Files.isRegularFile(defaultFile)) {
                return Optional.empty();
            }
            looked = "$KUBECONFIG is not set and " + defaultFile + " does not exist";
        }
        StringBuilder message = new StringBuilder("no cluster to talk to: no --kubeconfig was given, ").append(looked)
                .append(", and this is not a pod in a cluster.\n")
                .append("Point muster at a cluster as you would kubectl: --kubeconfig FILE, or export KUBECONFIG=FILE.");
        Path local = workingDir.resolve(LOCAL_KUBECONFIG).toAbsolutePath();
        if (Files.isRegularFile(local)) {
            message.append("\nThe local cluster of ./muster local wrote ").append(local)
                    .append(answers(local) ? "; it is running: add --kubeconfig " + local
                            : " but does not answer now; start it with ./muster local, then add --kubeconfig " + local);
        } else {
            message.append("\nFor a cluster on this machine, run ./muster local in another terminal: it writes "
                    + LOCAL_KUBECONFIG + " under the directory it runs in.");
        }
        return Optional.of(message.toString());
    }

    private boolean set(String name) {
        String value = lookup.apply(name);
        return value != null && !value.isBlank();
    }

    /** Whether the server the kubeconfig names accepts a connection: whether that local cluster runs now. */
    private static boolean answers(Path kubeconfig) {
        try {
            URI server = URI.create(Config.fromKubeconfig(null, kubeconfig.toFile()).getMasterUrl());
            int port = server.getPort() > 0 ? server.getPort() : "https".equals(server.getScheme()) ? 443 : 80;
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(server.getHost(), port), PROBE_MILLIS);
                return true;
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
