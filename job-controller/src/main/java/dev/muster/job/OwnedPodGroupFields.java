package dev.muster.job;

import dev.muster.api.scheduling.v1alpha1.PodGroupSpec;
import dev.muster.support.status.StatusWriter;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.util.Objects;

/**
 * The fields of a PodGroup's spec the job controller owns ({@code minMember}, {@code minTaskMember}, queue,
 * priorityClassName, schedulingConstraints, subGroupPolicy, maxRuntime, runningEstimate), compared with and merged into the spec
 * as read, for {@link JobResourceWriter}'s update with the resourceVersion it read; the other fields stay as users
 * set them. Kept by the writer, not by {@code PodGroupPlanner}, because it compares and copies through fabric8's
 * JSON serialisation, which the pure decisions do not use.
 */
final class OwnedPodGroupFields {
    private OwnedPodGroupFields() {
    }

    /** Whether the fields the job controller owns already hold the desired values. */
    static boolean match(PodGroupSpec actual, PodGroupSpec desired) {
        return actual != null
                && Objects.equals(actual.getMinMember(), desired.getMinMember())
                && Objects.equals(actual.getMinTaskMember(), desired.getMinTaskMember())
                && Objects.equals(actual.getQueue(), desired.getQueue())
                && Objects.equals(actual.getPriorityClassName(), desired.getPriorityClassName())
                && StatusWriter.sameJson(actual.getSchedulingConstraints(), desired.getSchedulingConstraints())
                && StatusWriter.sameJson(actual.getSubGroupPolicy(), desired.getSubGroupPolicy())
                && Objects.equals(actual.getMaxRuntime(), desired.getMaxRuntime())
                && Objects.equals(actual.getRunningEstimate(), desired.getRunningEstimate());
    }

    /** {@code actual} with the owned fields taken from {@code desired}; other fields stay as users set them. */
    static PodGroupSpec merge(PodGroupSpec actual, PodGroupSpec desired) {
        PodGroupSpec merged = actual == null ? new PodGroupSpec() : Serialization.clone(actual);
        merged.setMinMember(desired.getMinMember());
        merged.setMinTaskMember(desired.getMinTaskMember());
        merged.setQueue(desired.getQueue());
        merged.setPriorityClassName(desired.getPriorityClassName());
        merged.setSchedulingConstraints(desired.getSchedulingConstraints());
        merged.setSubGroupPolicy(desired.getSubGroupPolicy());
        merged.setMaxRuntime(desired.getMaxRuntime());
        merged.setRunningEstimate(desired.getRunningEstimate());
        return merged;
    }
}
