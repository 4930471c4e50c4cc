package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.model.HostPort;
import dev.muster.scheduler.core.model.PodInfo;

import java.util.List;

/**
 * kube-scheduler's NodePorts: a pod asking for host ports goes only to a node where no pod holds one of
 * them (same port and protocol, and the same address or either one on every address).
 */
final class NodePorts implements PodFilter {
    static final String REASON = "node(s) didn't have free ports for the requested pod ports";

    @Override
    public NodeCheck prepare(PodInfo pod, PodLayout layout) {
        List<HostPort> wanted = pod.interPod().hostPorts();
        if (wanted.isEmpty()) {
            return null;
        }
        return new NodeCheck() {
            @Override
            public String reject(int node) {
                for (PodInfo other : layout.podsOn(node)) {
                    for (HostPort held : other.interPod().hostPorts()) {
                        for (HostPort port : wanted) {
                            if (port.conflictsWith(held)) {
                                return REASON;
                            }
                        }
                    }
                }
                return null;
            }

            @Override
            public boolean beforeResources() {
                return true;
            }
        };
    }
}
