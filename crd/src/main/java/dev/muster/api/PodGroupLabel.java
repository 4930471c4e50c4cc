package dev.muster.api;

import io.fabric8.kubernetes.api.model.HasMetadata;

import java.util.Map;
import java.util.Optional;

/**
 * How a pod joins a gang: the label {@value MusterLabels#POD_GROUP} naming a PodGroup of its namespace, as
 * with the Coscheduling plugin's {@code scheduling.x-k8s.io/pod-group}. The one reader of that label.
 */
public final class PodGroupLabel {
    private PodGroupLabel() {
    }

    /** The name of the PodGroup the object joins, if its label names one (an empty value joins none). */
    public static Optional<String> groupName(HasMetadata object) {
        Map<String, String> labels = object.getMetadata().getLabels();
        String group = labels == null ? null : labels.get(MusterLabels.POD_GROUP);
        return group == null || group.isBlank() ? Optional.empty() : Optional.of(group);
    }

    /** {@code namespace/name} of the PodGroup the object joins, the key informer indexes use. */
    public static Optional<String> groupKey(HasMetadata object) {
        return groupName(object).map(group -> object.getMetadata().getNamespace() + "/" + group);
    }

    /** Sets the label on {@code labels} so that the pod joins {@code podGroup}. */
    public static void join(Map<String, String> labels, String podGroup) {
        labels.put(MusterLabels.POD_GROUP, podGroup);
    }
}
