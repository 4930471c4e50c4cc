package dev.muster.job.decision;

import dev.muster.api.MusterLabels;
import dev.muster.api.PodPreemption;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A job's pods sorted by what the controller may do with them.
 *
 * @param current   pods of the job's current version that the controller has not deleted and the scheduler
 *                  is not evicting: they count, and their events can trigger policies
 * @param stale     pods of another version (left from before a restart) not yet deleted by the controller
 * @param leaving   pods the controller deleted that the cache still shows
 * @param preempted pods of the current version the scheduler marked as preemption victims
 *                  ({@link PodPreemption}): being evicted, they count as terminating and trigger no policy
 */
record JobPods(List<Pod> current, List<Pod> stale, List<Pod> leaving, List<Pod> preempted) {

    /** Sorts {@code pods} for a job at {@code version}; {@code deletedUids} are the controller's own deletions. */
    static JobPods sort(Collection<Pod> pods, int version, Set<String> deletedUids) {
        List<Pod> current = new ArrayList<>();
        List<Pod> stale = new ArrayList<>();
        List<Pod> leaving = new ArrayList<>();
        List<Pod> preempted = new ArrayList<>();
        String wanted = Integer.toString(version);
        for (Pod pod : pods) {
            String uid = pod.getMetadata().getUid();
            if (uid != null && deletedUids.contains(uid)) {
                leaving.add(pod);
            } else if (wanted.equals(versionOf(pod))) {
                (PodPreemption.isPreempted(pod) ? preempted : current).add(pod);
            } else {
                stale.add(pod);
            }
        }
        return new JobPods(current, stale, leaving, preempted);
    }

    /** Pods on their way out that the counts show as terminating. */
    int departing() {
        return stale.size() + leaving.size() + preempted.size();
    }

    static String versionOf(Pod pod) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(MusterLabels.JOB_VERSION);
    }

    /** The pod's task, from its task-name label; null for a pod without one. */
    static String taskOf(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        return labels == null ? null : labels.get(MusterLabels.TASK_NAME);
    }
}
