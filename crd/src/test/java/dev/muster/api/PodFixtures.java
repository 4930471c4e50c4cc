package dev.muster.api;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;

import java.util.Map;

/**
 * Pods for unit tests of what is read from a pod's node, phase and labels, shared through this module's test jar so that each
 * test module builds them one way.
 */
public final class PodFixtures {
    private PodFixtures() {
    }

    /**
     * A pod {@code p} in namespace {@code ns}.
     *
     * @param node  its {@code spec.nodeName}; {@code null}: not bound
     * @param phase its {@code status.phase}; {@code null}: no status yet
     */
    public static Pod pod(String node, String phase) {
        PodBuilder pod = new PodBuilder().withNewMetadata().withName("p").withNamespace("ns").endMetadata()
                .withNewSpec().withNodeName(node).endSpec();
        if (phase != null) {
            pod.withNewStatus().withPhase(phase).endStatus();
        }
        return pod.build();
    }

    /** A pod {@code p} in namespace {@code ns} with these labels, not bound. */
    public static Pod labelled(Map<String, String> labels) {
        return labelled(labels, null);
    }

    /** A pod {@code p} in namespace {@code ns} with these labels, bound to {@code node} ({@code null}: not bound). */
    public static Pod labelled(Map<String, String> labels, String node) {
        return new PodBuilder(pod(node, null)).editMetadata().withLabels(labels).endMetadata().build();
    }
}
