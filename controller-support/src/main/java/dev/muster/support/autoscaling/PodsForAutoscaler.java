package dev.muster.support.autoscaling;

import io.fabric8.kubernetes.api.model.HasMetadata;

import java.util.Map;

/**
 * The pending-pods way of showing a cluster autoscaler a gang that waits for capacity
 * ({@code muster.scheduler.autoscaling: pending-pods}): the gang scheduler marks the gang's PodGroup, and the Job
 * controller then creates the job's pods before the gang is admitted. The scheduler leaves them unbound with
 * {@code PodScheduled=False}, reason {@code Unschedulable}, as kube-scheduler does, which any autoscaler that
 * watches pending pods scales for; it still binds the gang all or nothing.
 */
public final class PodsForAutoscaler {
    /** On a PodGroup, {@code "true"}: its job's pods are created before admission, for the autoscaler to see. */
    public static final String ANNOTATION = "scheduling.muster.dev/pods-for-autoscaler";

    private PodsForAutoscaler() {
    }

    /** Whether the scheduler marked the PodGroup so. */
    public static boolean marked(HasMetadata podGroup) {
        Map<String, String> annotations = podGroup == null ? null : podGroup.getMetadata().getAnnotations();
        return annotations != null && "true".equals(annotations.get(ANNOTATION));
    }
}
