package dev.muster.job;

import dev.muster.job.decision.QueueGate;
import dev.muster.api.batch.v1alpha1.JobOwnership;
import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.api.scheduling.v1alpha1.QueueAccess;
import dev.muster.api.scheduling.v1alpha1.QueueSpec;
import dev.muster.support.controller.Attachments;
import dev.muster.support.controller.ObjectKey;
import dev.muster.support.informer.SharedInformers;
import dev.muster.job.plugin.JobPlugins;
import dev.muster.job.plugin.PluginObject;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import dev.muster.job.decision.PodPriorityClasses;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The job controller's read side: Jobs, their pods and their PodGroups from the shared informers, and the
 * objects their plugins made from label-selected informers of its own.
 */
final class JobCache {
    /** Index of the shared Pod informer: {@code namespace/job-name} of pods carrying the job-name label. */
    static final String PODS_BY_JOB = "muster.dev/pods-by-job";
    /** Index of the shared Job informer: {@code namespace/claim} of each claim a job names in {@code spec.volumes}. */
    static final String JOBS_BY_CLAIM = "muster.dev/jobs-by-claim";
    /** Index of the shared Job informer: the queue each job is in ({@link QueueGate#queueOf}). */
    static final String JOBS_BY_QUEUE = "muster.dev/jobs-by-queue";
    /** Index of the shared Job informer: each PriorityClass the job's pods name ({@link PodPriorityClasses#named}). */
    static final String JOBS_BY_PRIORITY_CLASS = "muster.dev/jobs-by-priority-class";

    private final SharedIndexInformer<Job> jobs;
    private final SharedIndexInformer<Pod> pods;
    private final SharedIndexInformer<PodGroup> podGroups;
    private final SharedIndexInformer<Queue> queues;
    private final SharedIndexInformer<Namespace> namespaces;
    private final SharedIndexInformer<PriorityClass> priorityClasses;
    /** Empty while the controller is stopped: the informers of plugin objects are the controller's own. */
    private volatile Map<Class<? extends HasMetadata>, SharedIndexInformer<? extends HasMetadata>> pluginObjects = Map.of();

    /**
     * Reads Jobs, Pods, PodGroups, Queues and Namespaces (whose labels a queue's namespaceSelector selects) from the
     * shared informers; {@link #addIndexes()} adds what it reads by.
     */
    JobCache(SharedInformers informers) {
        this.jobs = informers.informer(Job.class);
        this.pods = informers.informer(Pod.class);
        this.podGroups = informers.informer(PodGroup.class);
        this.queues = informers.informer(Queue.class);
        this.namespaces = informers.informer(Namespace.class);
        this.priorityClasses = informers.informer(PriorityClass.class);
    }

    /** Adds the indexes it reads by to the shared informers, unless they have them. */
    void addIndexes() {
        Attachments.index(jobs, Map.of(JOBS_BY_CLAIM, JobCache::namedClaims,
                JOBS_BY_QUEUE, job -> List.of(QueueGate.queueOf(job)),
                JOBS_BY_PRIORITY_CLASS, job -> List.copyOf(PodPriorityClasses.named(job))));
        Attachments.index(pods, Map.of(PODS_BY_JOB, pod -> jobKey(pod).map(key -> List.of(key.toString())).orElse(List.of())));
    }

    /**
     * Reads plugin objects from these informers from now on.
     *
     * @param informers informers of the kinds plugins create ({@link JobPlugins#OBJECT_TYPES}), selected by the
     *                  job-name label so that the cache holds jobs' objects only; empty while
     *                  the controller is stopped
     */
    void usePluginObjects(Map<Class<? extends HasMetadata>, SharedIndexInformer<? extends HasMetadata>> informers) {
        this.pluginObjects = Map.copyOf(informers);
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

    SharedIndexInformer<Queue> queues() {
        return queues;
    }

    SharedIndexInformer<Namespace> namespaces() {
        return namespaces;
    }

    SharedIndexInformer<PriorityClass> priorityClasses() {
        return priorityClasses;
    }

    /** Whether the PriorityClass exists. */
    boolean priorityClassExists(String name) {
        return priorityClasses.getStore().getByKey(name) != null;
    }

    /** The jobs whose pods name the class. */
    List<ObjectKey> jobsNaming(PriorityClass priorityClass) {
        return jobs.getIndexer().byIndex(JOBS_BY_PRIORITY_CLASS, priorityClass.getMetadata().getName()).stream()
                .map(ObjectKey::of).toList();
    }

    /** Every queue's spec by name, as {@link QueueAccess} reads the queue tree. */
    Map<String, QueueSpec> queueSpecs() {
        Map<String, QueueSpec> specs = new HashMap<>();
        queues.getStore().list().forEach(queue -> specs.put(queue.getMetadata().getName(), queue.getSpec()));
        return specs;
    }

    /** The labels of the namespace; empty when it is not cached (yet). */
    Map<String, String> namespaceLabels(String namespace) {
        Namespace cached = namespaces.getStore().getByKey(namespace);
        return cached == null || cached.getMetadata().getLabels() == null ? Map.of() : cached.getMetadata().getLabels();
    }

    /** The jobs in the named queue. */
    List<ObjectKey> jobsIn(String queue) {
        return queue == null ? List.of()
                : jobs.getIndexer().byIndex(JOBS_BY_QUEUE, queue).stream().map(ObjectKey::of).toList();
    }

    /** The jobs of the namespace. */
    List<ObjectKey> jobsOf(String namespace) {
        return jobs.getIndexer().byIndex(Cache.NAMESPACE_INDEX, namespace).stream().map(ObjectKey::of).toList();
    }

    /** The jobs a queue refuses as their status says ({@link QueueAccess#isRefusal}), which a queue change may release. */
    List<ObjectKey> jobsHeldByQueues() {
        return jobs.getStore().list().stream().filter(job -> job.getStatus() != null && job.getStatus().getState() != null
                && QueueAccess.isRefusal(job.getStatus().getState().getReason())).map(ObjectKey::of).toList();
    }

    private static List<String> namedClaims(Job job) {
        if (job.getSpec() == null || job.getSpec().getVolumes() == null) {
            return List.of();
        }
        return job.getSpec().getVolumes().stream()
                .filter(v -> v != null && v.getVolumeClaimName() != null)
                .map(v -> new ObjectKey(job.getMetadata().getNamespace(), v.getVolumeClaimName()).toString())
                .toList();
    }

    /** The informers of plugin objects, which the controller starts and stops itself. */
    Collection<SharedIndexInformer<? extends HasMetadata>> pluginObjectInformers() {
        return pluginObjects.values();
    }

    /** Whether every kind has been listed, so that absence in the cache means absence. */
    boolean hasSynced() {
        var plugins = pluginObjects;
        return jobs.hasSynced() && pods.hasSynced() && podGroups.hasSynced() && queues.hasSynced() && namespaces.hasSynced()
                && priorityClasses.hasSynced()
                && !plugins.isEmpty() && plugins.values().stream().allMatch(SharedIndexInformer::hasSynced);
    }

    /**
     * The cached object of that kind and name in the job's namespace (of a labelled kind, if labelled); empty
     * for a kind the controller does not read ({@link JobPlugins#CREATED_UNREAD}).
     */
    Optional<HasMetadata> pluginObject(Job job, PluginObject object) {
        if (JobPlugins.CREATED_UNREAD.contains(object.type())) {
            return Optional.empty();
        }
        return Optional.ofNullable(informer(object.type()).getStore().getByKey(
                new ObjectKey(job.getMetadata().getNamespace(), object.name()).toString()));
    }

    /** Every PersistentVolumeClaim of the cluster. */
    @SuppressWarnings("unchecked")
    SharedIndexInformer<PersistentVolumeClaim> claims() {
        return (SharedIndexInformer<PersistentVolumeClaim>) informer(PersistentVolumeClaim.class);
    }

    /** Whether the claim exists in the job's namespace. */
    boolean claimExists(Job job, String claim) {
        return claims().getStore().getByKey(new ObjectKey(job.getMetadata().getNamespace(), claim).toString()) != null;
    }

    /** The jobs that name the claim in {@code spec.volumes[].volumeClaimName}. */
    List<ObjectKey> jobsNaming(PersistentVolumeClaim claim) {
        return jobs.getIndexer().byIndex(JOBS_BY_CLAIM, ObjectKey.of(claim).toString()).stream().map(ObjectKey::of).toList();
    }

    private SharedIndexInformer<? extends HasMetadata> informer(Class<? extends HasMetadata> type) {
        SharedIndexInformer<? extends HasMetadata> informer = pluginObjects.get(type);
        if (informer == null) {
            throw new IllegalArgumentException(type.getSimpleName() + " is not in JobPlugins.OBJECT_TYPES");
        }
        return informer;
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
