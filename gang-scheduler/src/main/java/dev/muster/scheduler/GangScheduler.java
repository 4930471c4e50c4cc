package dev.muster.scheduler;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.scheduler.autoscaling.AutoscalerSignal;
import dev.muster.scheduler.autoscaling.AutoscalingMode;
import dev.muster.scheduler.autoscaling.CapacityProvisioner;
import dev.muster.scheduler.autoscaling.PendingPodsRelease;
import dev.muster.scheduler.core.dra.DeviceTaintRule;
import dev.muster.support.event.EventRecorder;
import dev.muster.gang.GangVerdictBoard;
import dev.muster.support.informer.SharedInformers;
import dev.muster.support.informer.WithoutManagedFields;
import dev.muster.support.status.StatusRecorder;
import dev.muster.support.status.StatusWriter;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.utils.ApiVersionUtil;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Muster's gang scheduler: binds the pods with {@code schedulerName: muster} all-or-nothing per gang
 * (pods labelled {@code scheduling.muster.dev/pod-group} with the same PodGroup; a pod without the label
 * is a gang of one), honouring the PodGroup's {@code minMember} and {@code minTaskMember}.
 *
 * <p>A Muster Job creates its pods only once its PodGroup is admitted: the scheduler admits the gang
 * when its quorum, shaped by the Job's task templates, fits node by node in room not promised to gangs
 * admitted before it, and holds that room until the pods are created and placed (verdict
 * {@code ADMITTED}, PodGroup phase Inqueue).
 *
 * <p>Gangs are in Queues ({@code docs/queues.md}): each cycle plans under their fair shares, guarantees and
 * limits, and may evict gangs, whole or their surplus members, through the Eviction API; it writes each
 * Queue's status.
 *
 * <p>Informers on nodes, all pods, PodGroups, PriorityClasses, Jobs, Queues, namespaces, claims, volumes and
 * storage classes, and where {@code resource.k8s.io/v1} is served on DeviceClasses, ResourceSlices,
 * ResourceClaims and ResourceClaimTemplates, feed a cache (DRA objects Muster does not honour get a Warning Event,
 * {@link DraWarnings}); a cycle runs on one thread whenever something happened that can make a pod schedulable, and at least every
 * {@link GangSchedulerConfig#cyclePeriod()}. Bindings and pod condition writes run on a bounded pool
 * beside it. Verdicts per PodGroup go to the {@link GangVerdictBoard}, whose listener (the PodGroup
 * controller) writes PodGroup status; this class never writes it. Where the API server serves Kubernetes' own
 * PodGroups ({@code scheduling.k8s.io}), pods that name one in {@code spec.schedulingGroup} are gang-scheduled by
 * it too, and their group's scheduled condition is written here ({@link WorkloadPodGroupConditions}), as
 * kube-scheduler writes it.
 */
public final class GangScheduler implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(GangScheduler.class);
    /** Reporting component of the scheduler's events, as kube-scheduler reports as default-scheduler. */
    static final String COMPONENT = "muster-scheduler";

    private final KubernetesClient client;
    private final SharedInformers informers;
    private final boolean ownsInformers;
    private final GangVerdictBoard board;
    private final GangSchedulerConfig config;
    private final MeterRegistry meterRegistry;
    private final SchedulerCache cache;
    private final List<Runnable> handlerRemovals = new ArrayList<>();
    /** Read by the cycle thread, so not guarded by this object's lock, which stop() holds while waiting for it. */
    private volatile List<SharedIndexInformer<?>> watched = List.of();
    /**
     * The informers on kinds fabric8 has no model of, the scheduler's own: the DRA kinds ({@link #watchDevices}) and
     * Kubernetes PodGroups ({@link #watchWorkloadPodGroups}).
     */
    private final List<SharedIndexInformer<?>> ownInformers = new ArrayList<>();
    /** Per watched informer, whether its handler has been given its listing. */
    private final List<ListingDelivery> delivered = new CopyOnWriteArrayList<>();
    private volatile boolean caughtUp;
    /** Volatile: the ProvisioningRequest informer's thread asks it for cycles. */
    private volatile CycleTrigger trigger;
    private volatile SchedulingCycle cycle;
    /** What shows the cluster autoscaler the gangs that wait for capacity, if anything; closed on stop. */
    private AutoscalerSignal autoscaler;
    private ThreadPoolExecutor apiCalls;
    private boolean used;

    /** A scheduler with informers of its own, started and stopped with it; its meters go nowhere. */
    public GangScheduler(KubernetesClient client, GangVerdictBoard board, GangSchedulerConfig config) {
        this(client, new SharedInformers(client), true, board, config, new SimpleMeterRegistry());
    }

    /**
     * A scheduler on the process's shared informers. The owner of {@code informers} starts and closes
     * them; the scheduler only adds its event handlers on {@link #start()} and removes them on
     * {@link #stop()}.
     */
    public GangScheduler(KubernetesClient client, SharedInformers informers, GangVerdictBoard board,
                         GangSchedulerConfig config) {
        this(client, informers, false, board, config, new SimpleMeterRegistry());
    }

    /**
     * A scheduler on the process's shared informers that registers its meters (names
     * {@code muster.scheduler.*}: cycle duration, gangs placed, pods bound, bind failures, pending groups
     * by reason, per-queue allocation, fair share and demand, and preemption counters) with
     * {@code meterRegistry}.
     */
    public GangScheduler(KubernetesClient client, SharedInformers informers, GangVerdictBoard board,
                         GangSchedulerConfig config, MeterRegistry meterRegistry) {
        this(client, informers, false, board, config, meterRegistry);
    }

    private GangScheduler(KubernetesClient client, SharedInformers informers, boolean ownsInformers,
                          GangVerdictBoard board, GangSchedulerConfig config, MeterRegistry meterRegistry) {
        this.client = Objects.requireNonNull(client, "client");
        this.informers = Objects.requireNonNull(informers, "informers");
        this.ownsInformers = ownsInformers;
        this.board = Objects.requireNonNull(board, "board");
        this.config = Objects.requireNonNull(config, "config");
        this.cache = new SchedulerCache(config.jobAdmission(), config.volcanoPodLabels());
        this.meterRegistry = Objects.requireNonNull(meterRegistry, "meterRegistry");
    }

    /**
     * Registers with the informers (starting them if they are its own) and starts cycling. A scheduler
     * starts once; after {@link #stop()}, make a new one.
     */
    public synchronized void start() {
        if (used) {
            throw new IllegalStateException("a gang scheduler starts once");
        }
        used = true;
        apiCalls = new ThreadPoolExecutor(config.bindConcurrency(), config.bindConcurrency(), 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), daemonThreads("muster-scheduler-api-"));
        apiCalls.allowCoreThreadTimeOut(true);
        SharedIndexInformer<Node> nodes = informers.informer(Node.class);
        SharedIndexInformer<Pod> pods = informers.informer(Pod.class);
        SharedIndexInformer<PodGroup> podGroups = informers.informer(PodGroup.class);
        SharedIndexInformer<PriorityClass> priorityClasses = informers.informer(PriorityClass.class);
        SharedIndexInformer<Job> jobs = informers.informer(Job.class);
        SharedIndexInformer<Queue> queues = informers.informer(Queue.class);
        SharedIndexInformer<Namespace> namespaces = informers.informer(Namespace.class);
        SharedIndexInformer<ResourceQuota> resourceQuotas = informers.informer(ResourceQuota.class);
        SharedIndexInformer<LimitRange> limitRanges = informers.informer(LimitRange.class);
        SharedIndexInformer<PersistentVolumeClaim> claims = informers.informer(PersistentVolumeClaim.class);
        SharedIndexInformer<PersistentVolume> volumes = informers.informer(PersistentVolume.class);
        SharedIndexInformer<StorageClass> storageClasses = informers.informer(StorageClass.class);
        Clock clock = Clock.systemUTC();
        SchedulerMetrics metrics = new SchedulerMetrics(meterRegistry);
        EventRecorder eventRecorder = new EventRecorder(client, COMPONENT);
        autoscaler = autoscaler(podGroups, jobs, queues, this::requestCycle);
        SchedulingEvents events = new SchedulingEvents(eventRecorder, podGroups.getStore(), pods.getStore(), apiCalls);
        SchedulingCycle cycle = new SchedulingCycle(cache,
                new BindingClient(client, apiCalls, bound -> metrics.podBound(), failed -> {
                    metrics.bindFailed();
                    cache.forget(failed);
                }),
                new PodEvictor(client, pods.getStore(), podGroups.getStore(), events, metrics, apiCalls, clock,
                        cache::forgetEviction),
                new QueueStatusWriter(new StatusRecorder<>(new StatusWriter(client), eventRecorder,
                        config.queueStatusInterval(), QueueStatusWriter::countersOnly), queues.getStore(), apiCalls, clock),
                new PodConditionWriter(client, pods.getStore(), apiCalls, clock), board, events,
                metrics, this::isSynced, clock, config.coscheduling(), autoscaler);
        trigger = new CycleTrigger("muster-scheduler", cycle);
        this.cycle = cycle;

        watch(nodes, trigger, cache::putNode, cache::removeNode);
        watch(pods, trigger, cache::putPod, cache::removePod);
        // A PodGroup whose spec cannot be read is treated as absent: its pods wait, with the condition and Event
        // of a missing group, rather than be placed by a minimum nobody set.
        watch(podGroups, trigger, podGroup -> podGroup.readFailure().isPresent() ? cache.removePodGroup(podGroup)
                : cache.putPodGroup(podGroup), podGroup -> {
            // A PodGroup recreated under the same name must get its verdict even if it reads the same.
            board.forget(podGroup.getMetadata().getNamespace(), podGroup.getMetadata().getName());
            return cache.removePodGroup(podGroup);
        });
        watch(priorityClasses, trigger, cache::putPriorityClass, cache::removePriorityClass);
        watch(jobs, trigger, cache::putJob, cache::removeJob);
        watch(queues, trigger, cache::putQueue, cache::removeQueue);
        watch(namespaces, trigger, cache::putNamespace, cache::removeNamespace);
        watch(resourceQuotas, trigger, cache::putResourceQuota, cache::removeResourceQuota);
        watch(limitRanges, trigger, range -> cache.putLimitRange(range) && putJobsAgain(jobs, range),
                range -> cache.removeLimitRange(range) && putJobsAgain(jobs, range));
        watch(claims, trigger, cache::putClaim, cache::removeClaim);
        watch(volumes, trigger, cache::putVolume, cache::removeVolume);
        watch(storageClasses, trigger, cache::putStorageClass, cache::removeStorageClass);
        List<SharedIndexInformer<?>> all = new ArrayList<>(List.of(nodes, pods, podGroups, priorityClasses, jobs,
                namespaces, resourceQuotas, limitRanges, claims, volumes, storageClasses, queues));
        watchDevices(trigger, all, new DraWarnings(eventRecorder));
        watchWorkloadPodGroups(trigger, all, clock, events);
        watched = List.copyOf(all);
        if (ownsInformers) {
            informers.start();
        }
        ownInformers.forEach(SharedIndexInformer::start);
        trigger.start(config.cyclePeriod());
        log.info("gang scheduler started (cycle period {}, {} concurrent API calls, {})", config.cyclePeriod(),
                config.bindConcurrency(), config.coscheduling());
    }

    private void requestCycle() {
        CycleTrigger current = trigger;
        if (current != null) {
            current.request();
        }
    }

    /**
     * The autoscaler signal of the configured mode: {@code provisioning-request} requires the API server to serve
     * ProvisioningRequests; {@code pending-pods} releases the pods; {@code auto} uses ProvisioningRequests when they
     * are served, else pending pods when Karpenter's NodePools are (an autoscaler that watches pending pods runs),
     * else nothing: pending pods for every gang short of room would undo admission before pods on a cluster with no
     * autoscaler, so there they are asked for by name.
     */
    private AutoscalerSignal autoscaler(SharedIndexInformer<PodGroup> podGroups, SharedIndexInformer<Job> jobs,
                                        SharedIndexInformer<Queue> queues, Runnable onChange) {
        AutoscalingMode mode = config.autoscaling().mode();
        if (mode == AutoscalingMode.OFF) {
            log.info("autoscaling: off");
            return null;
        }
        boolean served = mode != AutoscalingMode.PENDING_PODS && ServedApis.provisioningRequests(client);
        if (!served && mode == AutoscalingMode.PROVISIONING_REQUEST) {
            throw new IllegalStateException("muster.scheduler.autoscaling is provisioning-request, but the API server "
                    + "does not serve autoscaling.x-k8s.io/v1 provisioningrequests (Cluster Autoscaler >= 1.30 with "
                    + "--enable-provisioning-requests installs them)");
        }
        if (mode == AutoscalingMode.PENDING_PODS || mode == AutoscalingMode.AUTO && !served && ServedApis.karpenter(client)) {
            log.info("autoscaling: pending-pods{} (the pods of a gang its queue admits that does not fit the nodes are "
                    + "created and left pending)", mode == AutoscalingMode.AUTO ? " (auto: Karpenter's NodePools are served)" : "");
            return new PendingPodsRelease(client, apiCalls, podGroups.getStore());
        }
        if (!served) {
            log.info("autoscaling: auto, and neither ProvisioningRequests nor Karpenter's NodePools are served: gangs "
                    + "waiting for capacity get none (muster.scheduler.autoscaling: pending-pods shows them to "
                    + "autoscalers that watch pending pods)");
            return null;
        }
        log.info("autoscaling: provisioning-request (class {} unless a Job or Queue names another)",
                config.autoscaling().provisioningClass());
        return new CapacityProvisioner(client, apiCalls, podGroups.getStore(), jobs.getStore(), queues.getStore(),
                config.autoscaling(), meterRegistry, onChange);
    }

    /**
     * Whether the informers have all listed once and their handlers have delivered that listing to the
     * scheduler's cache; no cycle runs before. An informer
     * reports synced as soon as its store is filled, while its handlers get the objects asynchronously,
     * so a first cycle on {@code hasSynced()} alone could place a gang it sees only half of.
     */
    public boolean isSynced() {
        if (caughtUp) {
            return !watched.isEmpty();
        }
        boolean synced = !watched.isEmpty() && delivered.stream().allMatch(ListingDelivery::caughtUp);
        caughtUp = synced;
        return synced;
    }

    /**
     * The gangs that wait, as the latest cycle left them, in the order the next cycle tries them, each
     * with why it waits; empty before the first cycle.
     */
    public List<QueuedGang> queue() {
        SchedulingCycle current = cycle;
        return current == null ? List.of() : current.waiting();
    }

    /** Where each queue stood after the latest cycle, parents before their children; empty before the first cycle. */
    public List<QueueState> queues() {
        SchedulingCycle current = cycle;
        return current == null ? List.of() : current.queueStates();
    }

    /** Stops cycling, waits for the running cycle and API calls, and leaves the informers. Idempotent. */
    public synchronized void stop() {
        if (trigger == null) {
            return;
        }
        trigger.stop();
        if (autoscaler != null) {
            autoscaler.close();
        }
        handlerRemovals.forEach(Runnable::run);
        handlerRemovals.clear();
        delivered.clear();
        watched = List.of();
        if (ownsInformers) {
            informers.close();
        }
        ownInformers.forEach(SharedIndexInformer::close);
        ownInformers.clear();
        apiCalls.shutdown();
        try {
            if (!apiCalls.awaitTermination(10, TimeUnit.SECONDS)) {
                log.warn("API calls still running 10s after stop; abandoning them");
                apiCalls.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        trigger = null;
        log.info("gang scheduler stopped");
    }

    @Override
    public void close() {
        stop();
    }

    /**
     * Watches the DRA kinds if discovery says the API server serves {@code resource.k8s.io/v1} ResourceSlices
     * ({@link ServedApis}); otherwise pods with ResourceClaims wait, told that their claims do not exist. These informers are the scheduler's own, read
     * as {@link GenericKubernetesResource} since fabric8 has no model of the v1 API, so the process's
     * shared, class-keyed informers cannot hold them.
     */
    private void watchDevices(CycleTrigger trigger, List<SharedIndexInformer<?>> all, DraWarnings warnings) {
        String taintRules = null;
        try {
            if (!ServedApis.dynamicResourceAllocation(client)) {
                log.info("{} resourceslices are not served: ResourceClaims are not allocated, pods with claims wait",
                        DraObjects.API_VERSION);
                return;
            }
            taintRules = ServedApis.deviceTaintRules(client);
        } catch (KubernetesClientException e) {
            // Discovery failed for another reason (the API server unreachable for now): watch, and let the informers
            // retry, so that devices are not ignored for the life of the process because of a passing failure.
            log.warn("discovery of {} failed, watching its kinds anyway: {}", DraObjects.API_VERSION, e.toString());
        }
        SharedIndexInformer<GenericKubernetesResource> slices = ownInformer(DraObjects.API_VERSION, "ResourceSlice",
                "resourceslices", false);
        SharedIndexInformer<GenericKubernetesResource> classes = ownInformer(DraObjects.API_VERSION, "DeviceClass",
                "deviceclasses", false);
        SharedIndexInformer<GenericKubernetesResource> claims = ownInformer(DraObjects.API_VERSION, "ResourceClaim",
                "resourceclaims", true);
        SharedIndexInformer<GenericKubernetesResource> templates = ownInformer(DraObjects.API_VERSION,
                "ResourceClaimTemplate", "resourceclaimtemplates", true);
        watch(slices, trigger, slice -> {
            warnings.slice(slice);
            return cache.putResourceSlice(slice);
        }, slice -> {
            warnings.sliceGone(slice);
            return cache.removeResourceSlice(slice);
        });
        watch(classes, trigger, cache::putDeviceClass, cache::removeDeviceClass);
        watch(claims, trigger, cache::putResourceClaim, cache::removeResourceClaim);
        watch(templates, trigger, cache::putResourceClaimTemplate, cache::removeResourceClaimTemplate);
        all.addAll(List.of(slices, classes, claims, templates));
        if (taintRules != null) {
            String rulesVersion = taintRules;
            SharedIndexInformer<GenericKubernetesResource> rules = ownInformer(rulesVersion, "DeviceTaintRule",
                    ServedApis.DEVICE_TAINT_RULES, false);
            watch(rules, trigger, object -> {
                DeviceTaintRule rule = DraObjects.taintRule(object);
                warnings.taintRule(object, rule, rulesVersion);
                return cache.putDeviceTaintRule(rule);
            }, rule -> {
                warnings.taintRuleGone(rule);
                return cache.removeDeviceTaintRule(rule);
            });
            all.add(rules);
            log.info("{} devicetaintrules are served: their taints are applied to the devices they select", rulesVersion);
        }
    }

    /**
     * Watches Kubernetes PodGroups ({@link WorkloadPodGroups}) at the newest version discovery says the API server
     * serves, and writes their scheduled condition ({@link WorkloadPodGroupConditions}); where none is served (before
     * Kubernetes 1.36, or with the {@code GenericWorkload} gate off) no pod can name one, the API server dropping the
     * field, and nothing is watched.
     */
    private void watchWorkloadPodGroups(CycleTrigger trigger, List<SharedIndexInformer<?>> all, Clock clock,
                                        SchedulingEvents events) {
        String apiVersion;
        try {
            apiVersion = ServedApis.workloadPodGroups(client);
        } catch (KubernetesClientException e) {
            log.warn("discovery of {} failed; Kubernetes PodGroups are not watched: {}", WorkloadPodGroups.GROUP,
                    e.toString());
            return;
        }
        if (apiVersion == null) {
            return;
        }
        SharedIndexInformer<GenericKubernetesResource> podGroups = ownInformer(apiVersion, WorkloadPodGroups.KIND,
                WorkloadPodGroups.PLURAL, true);
        watch(podGroups, trigger, cache::putWorkloadPodGroup, podGroup -> {
            board.forget(podGroup.getMetadata().getNamespace(), WorkloadPodGroups.key(podGroup).name());
            return cache.removeWorkloadPodGroup(podGroup);
        });
        WorkloadPodGroupConditions conditions = new WorkloadPodGroupConditions(client, apiVersion, podGroups.getStore(),
                apiCalls, clock);
        board.addListener(conditions);
        handlerRemovals.add(() -> board.removeListener(conditions));
        events.workloadPodGroups(podGroups.getStore());
        all.add(podGroups);
        log.info("{} podgroups are served: pods that name one in spec.schedulingGroup are gang-scheduled by it",
                apiVersion);
    }

    private SharedIndexInformer<GenericKubernetesResource> ownInformer(String apiVersion, String kind, String plural,
                                                                       boolean namespaced) {
        ResourceDefinitionContext context = new ResourceDefinitionContext.Builder()
                .withGroup(ApiVersionUtil.trimGroup(apiVersion)).withVersion(ApiVersionUtil.trimVersion(apiVersion))
                .withKind(kind).withPlural(plural).withNamespaced(namespaced).build();
        SharedIndexInformer<GenericKubernetesResource> informer = (namespaced
                ? client.genericKubernetesResources(context).inAnyNamespace().runnableInformer(0)
                : client.genericKubernetesResources(context).runnableInformer(0))
                .itemStore(new WithoutManagedFields<>());
        informer.exceptionHandler((wasStarted, failure) -> {
            log.warn("informer for {}: list or watch failed, retrying: {}", kind, failure.toString());
            return true;
        });
        ownInformers.add(informer);
        return informer;
    }

    /**
     * Puts the Jobs of the LimitRange's namespace into the cache again, once its container defaults changed, so that
     * the pods they will create are read with them.
     *
     * @return whether that changed what a waiting gang's Job will create
     */
    private boolean putJobsAgain(SharedIndexInformer<Job> jobs, LimitRange range) {
        boolean changed = false;
        String namespace = range.getMetadata().getNamespace();
        for (Job job : jobs.getIndexer().byIndex(Cache.NAMESPACE_INDEX, namespace)) {
            changed |= cache.putJob(job);
        }
        log.info("limitrange {}/{}: container defaults of the namespace changed; its jobs' pods are read again",
                namespace, range.getMetadata().getName());
        return changed;
    }

    private <T extends HasMetadata> void watch(SharedIndexInformer<T> informer, CycleTrigger trigger, Predicate<T> put,
                                               Predicate<T> remove) {
        ListingDelivery delivery = new ListingDelivery(informer);
        delivered.add(delivery);
        ResourceEventHandler<T> handler = new ResourceEventHandler<>() {
            @Override
            public void onAdd(T object) {
                if (put.test(object)) {
                    trigger.request();
                }
                delivery.given(object);
            }

            @Override
            public void onUpdate(T before, T object) {
                if (put.test(object)) {
                    trigger.request();
                }
                delivery.given(object);
            }

            @Override
            public void onDelete(T object, boolean finalStateUnknown) {
                if (remove.test(object)) {
                    trigger.request();
                }
                delivery.given(object);
            }
        };
        informer.addEventHandler(handler);
        handlerRemovals.add(() -> informer.removeEventHandler(handler));
    }

    private static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
