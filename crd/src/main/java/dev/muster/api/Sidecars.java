package dev.muster.api;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Native sidecars: init containers with {@code restartPolicy: Always}. The kubelet starts one in its turn among the
 * init containers, does not wait for it to end, keeps it running beside the containers (restarting it whenever it
 * ends) and stops it once they are done; its requests count with the containers'. One definition, because the
 * scheduler's arithmetic, the Job's policies and the local cluster's kubelet and tables must agree on it.
 *
 * @see <a href="https://kubernetes.io/docs/concepts/workloads/pods/sidecar-containers/">Sidecar containers</a>
 */
public final class Sidecars {

    /** The init container restart policy that makes a sidecar; the only value Kubernetes allows there. */
    public static final String RESTART_POLICY = "Always";

    private Sidecars() {
    }

    /** Whether an init container is a sidecar. */
    public static boolean isSidecar(Container init) {
        return RESTART_POLICY.equals(init.getRestartPolicy());
    }

    /** The names of a pod's sidecars; empty for a spec without init containers. */
    public static Set<String> names(PodSpec spec) {
        List<Container> inits = spec == null ? null : spec.getInitContainers();
        return inits == null ? Set.of()
                : inits.stream().filter(Sidecars::isSidecar).map(Container::getName).collect(Collectors.toSet());
    }
}
