package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.model.PodInfo;

import java.util.ArrayList;
import java.util.List;

/** The {@link PodFilter} checks that apply to one pod, prepared against the layout as it is now. */
final class PodChecks {
    private final List<PodFilter.NodeCheck> checks;

    private PodChecks(List<PodFilter.NodeCheck> checks) {
        this.checks = checks;
    }

    /** The checks of every filter that has something to say about the pod; {@code null} if none has. */
    static PodChecks prepare(PodInfo pod, PodLayout layout) {
        if (pod.interPod().isEmpty() && !layout.hasAntiAffinityOwners()) {
            return null;
        }
        List<PodFilter.NodeCheck> checks = null;
        for (PodFilter filter : PodFilter.ALL) {
            PodFilter.NodeCheck check = filter.prepare(pod, layout);
            if (check != null) {
                if (checks == null) {
                    checks = new ArrayList<>(2);
                }
                checks.add(check);
            }
        }
        return checks == null ? null : new PodChecks(checks);
    }

    /** Whether the node passes every check. */
    boolean passes(int node) {
        for (PodFilter.NodeCheck check : checks) {
            if (!check.passes(node)) {
                return false;
            }
        }
        return true;
    }

    /** These checks (none when {@code null}) and one more. */
    static PodChecks with(PodChecks checks, PodFilter.NodeCheck more) {
        List<PodFilter.NodeCheck> all = new ArrayList<>(checks == null ? List.of() : checks.checks);
        all.add(more);
        return new PodChecks(all);
    }

    /**
     * The first failing check's reason among those kube-scheduler runs before ({@code true}) or after
     * ({@code false}) the resource fit; {@code null} if they all pass.
     */
    String rejection(int node, boolean beforeResources) {
        for (PodFilter.NodeCheck check : checks) {
            if (check.beforeResources() == beforeResources) {
                String reason = check.reject(node);
                if (reason != null) {
                    return reason;
                }
            }
        }
        return null;
    }
}
