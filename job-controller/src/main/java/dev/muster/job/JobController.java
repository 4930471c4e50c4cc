package dev.muster.job;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.muster.job.decision.AdmissionGate;
import dev.muster.job.decision.JobStatusDecider;
import dev.muster.job.lifecycle.JobLifecycle;
import dev.muster.api.batch.v1alpha1.JobOwnership;
import dev.muster.api.MusterLabels;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.api.scheduling.v1alpha1.QueueDefaults;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.utils.Serialization;
import dev.muster.job.plugin.JobPlugins;
import dev.muster.support.controller.Attachments;
import dev.muster.support.controller.Controller;
import dev.muster.support.controller.ManagedController;
import dev.muster.support.controller.ObjectKey;
import dev.muster.support.event.EventRecorder;
import dev.muster.support.informer.SharedInformers;
import dev.muster.support.informer.WithoutManagedFields;
import dev.muster.support.status.StatusRecorder;
import dev.muster.support.status.StatusWriter;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * The Job controller: for each {@link Job}, a PodGroup and the pods {@code <job>-<task>-<index>}, and a
 * status that follows the job lifecycle. Level-triggered: Job events, events of pods labelled with a
 * job name and events of a job's PodGroup all just queue the Job for a reconcile.
 *
 * <p>With an admitting scheduler (see {@link #JobController(KubernetesClient, SharedInformers, int, Clock, String)}),
 * a job of that scheduler gets its PodGroup at once and its pods only once the scheduler has admitted the
 * PodGroup ({@link AdmissionGate}); the admission is a PodGroup status change, so it wakes the job.
 *
 * <p>Wiring: construct it with the process's {@link SharedInformers}, then {@link #start()} it, before or after
 * {@link SharedInformers#start()}. Starting adds its indexes to the shared informers (unless there), its
 * handlers to them, and starts informers of its own for plugin objects; {@link #stop()} removes the handlers
 * and closes those informers, and {@link #start()} may follow again. {@link #close()} stops it for good.
 */
public final class JobController extends ManagedController {
    private static final Logger log = LoggerFactory.getLogger(JobController.class);
    /** Name of the controller's worker threads and of the component in recorded Events. */
    public static final String NAME = "muster-job-controller";
    /** Pod creations in flight at once: enough to hide API round trips, few enough not to flood the server. */
    static final int POD_CREATION_CONCURRENCY = 16;

    private final KubernetesClient client;
    private final JobCache cache;
    /** Pod creations in flight at once, across all jobs; each job's go in slow-start batches. */
    private final ExecutorService podCreations;
    /** The pods created and not yet seen by the cache, whose add events it is told of. */
    private final CreatedPods created;

    /** A controller with the production defaults ({@link JobControllerConfig#defaults()}) on the system clock. */
    public JobController(KubernetesClient client, SharedInformers informers) {
        this(client, informers, JobControllerConfig.defaults(), Clock.systemUTC());
    }

    /**
     * @param client    client for writes; reads come from {@code informers}
     * @param informers the process's shared informers; Job, Pod and PodGroup informers are taken from it
     * @param config    workers, count-write pacing and which jobs wait for admission: a job that waits gets
     *                  its PodGroup at once, but its pods only once the PodGroup's phase is set and not
     *                  Pending (Inqueue when admitted); until then it stays Pending and its
     *                  {@code status.state.message} says why
     * @param clock     source of transition times and running durations
     */
    public JobController(KubernetesClient client, SharedInformers informers, JobControllerConfig config, Clock clock) {
        this(client, new JobCache(informers), config, clock, podCreationPool(), new CreatedPods(clock));
    }

    private JobController(KubernetesClient client, JobCache cache, JobControllerConfig config, Clock clock,
                          ExecutorService podCreations, CreatedPods created) {
        super(new Controller(NAME, reconciler(client, cache, config, clock, podCreations, created), config.workers()));
        this.client = client;
        this.cache = cache;
        this.podCreations = podCreations;
        this.created = created;
    }

    private static JobReconciler reconciler(KubernetesClient client, JobCache cache, JobControllerConfig config,
                                            Clock clock, ExecutorService podCreations, CreatedPods created) {
        EventRecorder events = new EventRecorder(client, NAME);
        return new JobReconciler(cache, new JobStatusDecider(new JobLifecycle()), new AdmissionGate(config.admission()),
                new JobResourceWriter(client, events, podCreations, config.volcanoPodLabels(), config.networkTopologyTiers(),
                        created),
                new StatusRecorder<>(new StatusWriter(client), events, config.counterWriteInterval(),
                        JobCounters::countersOnly),
                new ReconcileFailureRecorder(client, cache, clock), config.networkTopologyTiers(),
                new PodTemplateDryRun(client, events, config.volcanoPodLabels(), Ticker.systemTicker()), clock);
    }

    /** A handler of add events only. */
    private static <T> ResourceEventHandler<T> onAdd(Consumer<T> added) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T object) {
                added.accept(object);
            }

            @Override
            public void onUpdate(T before, T object) {
            }

            @Override
            public void onDelete(T object, boolean unknownFinalState) {
            }
        };
    }

    private static ExecutorService podCreationPool() {
        return Executors.newFixedThreadPool(POD_CREATION_CONCURRENCY, r -> {
            Thread thread = new Thread(r, NAME + "-pod-creation");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Watches Jobs, their Pods, PodGroups, claims and PriorityClasses through the shared informers, and the objects
     * plugins make through informers of its own, started here: an informer once closed cannot be started again.
     */
    @Override
    protected void attach(Attachments attachments) {
        cache.addIndexes();
        Map<Class<? extends HasMetadata>, SharedIndexInformer<? extends HasMetadata>> pluginObjects = pluginObjectInformers(client);
        cache.usePluginObjects(pluginObjects);
        attachments.onDetach(() -> {
            cache.usePluginObjects(Map.of());
            pluginObjects.values().forEach(SharedIndexInformer::close);
        });
        Controller workers = workers();
        attachments.handler(cache.jobs(), workers.enqueueing(job -> Optional.of(ObjectKey.of(job))));
        // A new leader starts from its fresh list; a pod the cache has seen, even if deleted before the job's
        // next decision, is no longer expected.
        created.clear();
        attachments.handler(cache.pods(), onAdd(created::observed));
        attachments.handler(cache.pods(), workers.enqueueing(JobCache::jobKey));
        // A PodGroup no Job controls may be one a user made for the job of its name, which the job uses as
        // its gang; its admission must wake that job too. For any other such PodGroup the key finds no job.
        attachments.handler(cache.podGroups(), workers.enqueueing(group -> Optional.of(new ObjectKey(
                group.getMetadata().getNamespace(), JobOwnership.controllingJob(group).orElse(group.getMetadata().getName())))));
        // A plugin object deleted while its job runs wakes the job, which recreates it.
        ResourceEventHandler<HasMetadata> pluginObjectHandler = workers.enqueueing(object -> JobOwnership.controllingJob(object)
                .map(job -> new ObjectKey(object.getMetadata().getNamespace(), job)));
        pluginObjects.values().forEach(informer -> addHandler(attachments, informer, pluginObjectHandler));
        // A queue that appears, changes its spec (state, parent, namespaceSelector) or goes can change whether
        // QueueAccess takes a job: those in it, in its old and new parent (which gains or loses a child), and
        // those a queue holds now (a missing ancestor, a cycle). Its status, which the scheduler rewrites every
        // cycle it changes, concerns no job.
        attachments.handler(cache.queues(), new ResourceEventHandler<>() {
            @Override
            public void onAdd(Queue queue) {
                wake(queue, null);
            }

            @Override
            public void onUpdate(Queue before, Queue queue) {
                // QueueSpec has no equals: compared as JSON, as it is stored.
                if (!Serialization.jsonMapper().valueToTree(before.getSpec()).equals(
                        Serialization.jsonMapper().valueToTree(queue.getSpec()))) {
                    wake(queue, before);
                }
            }

            @Override
            public void onDelete(Queue queue, boolean unknownFinalState) {
                wake(queue, null);
            }

            private void wake(Queue queue, Queue before) {
                Set<ObjectKey> jobs = new LinkedHashSet<>(cache.jobsIn(queue.getMetadata().getName()));
                jobs.addAll(cache.jobsIn(QueueDefaults.parent(queue.getSpec())));
                if (before != null) {
                    jobs.addAll(cache.jobsIn(QueueDefaults.parent(before.getSpec())));
                }
                jobs.addAll(cache.jobsHeldByQueues());
                jobs.forEach(workers::enqueue);
            }
        });
        // A namespace whose labels change may now be selected, or no longer, by a queue's namespaceSelector.
        attachments.handler(cache.namespaces(), new ResourceEventHandler<>() {
            @Override
            public void onAdd(Namespace namespace) {
                cache.jobsOf(namespace.getMetadata().getName()).forEach(workers::enqueue);
            }

            @Override
            public void onUpdate(Namespace before, Namespace namespace) {
                if (!Objects.equals(before.getMetadata().getLabels(), namespace.getMetadata().getLabels())) {
                    cache.jobsOf(namespace.getMetadata().getName()).forEach(workers::enqueue);
                }
            }

            @Override
            public void onDelete(Namespace namespace, boolean unknownFinalState) {
            }
        });
        // A PriorityClass or a claim that appears wakes the jobs whose pods wait for it. Only a new one can end a
        // wait; one changed or deleted leaves running pods as they are.
        attachments.handler(cache.priorityClasses(), onAdd(priorityClass -> cache.jobsNaming(priorityClass)
                .forEach(workers::enqueue)));
        attachments.handler(cache.claims(), onAdd(claim -> cache.jobsNaming(claim).forEach(workers::enqueue)));
        pluginObjects.values().forEach(SharedIndexInformer::start);
    }

    private static <T extends HasMetadata> SharedIndexInformer<T> pluginObjectInformer(KubernetesClient client,
                                                                                        Class<T> type) {
        // Every claim: a job's pods wait for the claims it names, which it did not make and are not labelled.
        var objects = client.resources(type).inAnyNamespace();
        SharedIndexInformer<T> informer = type == PersistentVolumeClaim.class ? objects.runnableInformer(0)
                : objects.withLabel(MusterLabels.JOB_NAME).runnableInformer(0);
        return informer.itemStore(new WithoutManagedFields<>());
    }

    private static Map<Class<? extends HasMetadata>, SharedIndexInformer<? extends HasMetadata>> pluginObjectInformers(
            KubernetesClient client) {
        Map<Class<? extends HasMetadata>, SharedIndexInformer<? extends HasMetadata>> pluginObjects = new LinkedHashMap<>();
        for (Class<? extends HasMetadata> type : JobPlugins.OBJECT_TYPES) {
            SharedIndexInformer<? extends HasMetadata> informer = pluginObjectInformer(client, type);
            // As the shared informers do: a failed list or watch is retried, never the end of the informer,
            // whose cache the controller waits for before any reconcile.
            informer.exceptionHandler((wasStarted, failure) -> {
                log.warn("informer for {}: list or watch failed, retrying: {}", type.getSimpleName(), failure.toString());
                return true;
            });
            pluginObjects.put(type, informer);
        }
        return pluginObjects;
    }

    @SuppressWarnings("unchecked")
    private static <T extends HasMetadata> void addHandler(Attachments attachments, SharedIndexInformer<T> informer,
                                                           ResourceEventHandler<HasMetadata> handler) {
        attachments.handler(informer, (ResourceEventHandler<T>) handler);
    }

    /** Whether the Job, Pod, PodGroup and plugin-object informers have listed their kinds, for health reporting. */
    public boolean hasSynced() {
        return cache.hasSynced();
    }

    /**
     * The kinds whose informer of plugin objects runs (this replica leads) but is not watching, for health
     * reporting: the shared informers' health does not cover these, which the controller keeps itself.
     */
    public List<String> informersNotWatching() {
        return cache.pluginObjectInformers().stream().filter(i -> i.isRunning() && !i.isWatching())
                .map(i -> i.getApiTypeClass().getSimpleName()).toList();
    }

    /** Stops the controller for good: unlike {@link #stop()}, it also ends pod creation. */
    @Override
    public void close() {
        super.close();
        podCreations.shutdown();
    }
}
