package dev.muster.job;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.support.controller.ObjectKey;
import dev.muster.support.informer.SharedInformers;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The job controller's read side: Jobs, their pods and their PodGroups from the shared informers. */
final class JobCache {
    /** Index of the shared Pod informer: {@code namespace/job-name} of pods carrying the job-name label. */
    static final String PODS_BY_JOB = "muster.dev/pods-by-job";

    private final SharedIndexInformer<Job> jobs;
    private final SharedIndexInformer<Pod> pods;
    private final SharedIndexInformer<PodGroup> podGroups;

    JobCache(SharedInformers informers) {
        this.jobs = informers.informer(Job.class);
        this.pods = informers.informer(Pod.class);
        this.podGroups = informers.informer(PodGroup.class);
        if (!pods.getIndexer().getIndexers().containsKey(PODS_BY_JOB)) {
            pods.addIndexers(Map.of(PODS_BY_JOB, pod -> jobKey(pod).map(key -> List.of(key.toString())).orElse(List.of())));
        }
    }

    /** The job of a pod, from its job-name label. */
    static Optional<ObjectKey> jobKey(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        String job = labels == null ? null : labels.get(MusterLabels.JOB_NAME);
        return job == null ? Optional.empty() : Optional.of(new ObjectKey(pod.getMetadata().getNamespace(), job));
    }

    SharedIndexInformer<Job> jobs() {
        return jobs;
    }

    SharedIndexInformer<Pod> pods() {
        return pods;
    }

    SharedIndexInformer<PodGroup> podGroups() {
        return podGroups;
    }

    /** Whether all three kinds have been listed, so that absence in the cache means absence. */
    boolean hasSynced() {
        return jobs.hasSynced() && pods.hasSynced() && podGroups.hasSynced();
    }

    Optional<Job> job(ObjectKey key) {
        return Optional.ofNullable(jobs.getStore().getByKey(key.toString()));
    }

    /** Pods this job controls; pods left by an earlier job of the same name are not its own. */
    List<Pod> podsOf(Job job) {
        return pods.getIndexer().byIndex(PODS_BY_JOB, ObjectKey.of(job).toString()).stream()
                .filter(pod -> JobOwnership.isControlledBy(pod, job))
                .toList();
    }

    Optional<PodGroup> podGroupOf(Job job) {
        String name = JobDefaults.podGroupName(job.getMetadata().getName());
        return Optional.ofNullable(podGroups.getStore().getByKey(new ObjectKey(job.getMetadata().getNamespace(), name).toString()));
    }
}
