package dev.muster.api;

import io.fabric8.kubernetes.api.model.HasMetadata;

import java.util.Map;
import java.util.Optional;

/**
 * How a pod joins a gang: by naming a PodGroup of its namespace in Muster's label {@value MusterLabels#POD_GROUP},
 * in the Coscheduling plugin's label {@value #COSCHEDULING_LABEL}, or in the annotation
 * {@value #GROUP_NAME_ANNOTATION} that Spark, Flink and KubeRay set for Volcano; so pods of any workload can
 * be gang-scheduled by Muster unchanged. Where a pod names groups in more than one, the first in that order
 * counts. The one reader of all three.
 */
public final class PodGroupLabel {
    /** The pod-group label of the scheduler-plugins Coscheduling plugin. */
    public static final String COSCHEDULING_LABEL = "scheduling.x-k8s.io/pod-group";
    /** The annotation that names a pod's Volcano PodGroup (Spark, Flink and KubeRay set it). */
    public static final String GROUP_NAME_ANNOTATION = "scheduling.k8s.io/group-name";

    private PodGroupLabel() {
    }

    /**
     * The name of the PodGroup the object joins, if its labels or annotation name one (a blank value names
     * none, and the next way is read).
     */
    public static Optional<String> groupName(HasMetadata object) {
        Map<String, String> labels = object.getMetadata().getLabels();
        Map<String, String> annotations = object.getMetadata().getAnnotations();
        return nonBlank(labels, MusterLabels.POD_GROUP)
                .or(() -> nonBlank(labels, COSCHEDULING_LABEL))
                .or(() -> nonBlank(annotations, GROUP_NAME_ANNOTATION));
    }

    private static Optional<String> nonBlank(Map<String, String> map, String key) {
        String value = map == null ? null : map.get(key);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
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
