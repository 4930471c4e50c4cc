package dev.muster.scheduler.autoscaling;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobOwnership;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.rendering.JobPodRenderer;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.placement.GangPlacement;
import dev.muster.support.autoscaling.ProvisioningConsumption;
import dev.muster.support.informer.WithoutManagedFields;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.PodTemplateBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.Store;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.HttpURLConnection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * The ProvisioningRequest adapter: each cycle, finds the gangs that wait for capacity only
 * ({@link CapacityNeeds}), lets {@link ProvisioningDecisions} decide their requests from the requests an
 * informer holds, and creates and deletes them on the API calls' pool. A request's pod sets reference
 * PodTemplates rendered from the Job by {@link JobPodRenderer} (the rendering the Job controller creates the pods
 * from), one per task; the request and its templates are owned by the gang's PodGroup, so the garbage collector
 * removes them with it, and a request the gang no longer needs is deleted with its templates. (The templates are
 * made before the request, which the autoscaler would fail without them, so they cannot be owned by it.) Deletes are made on the version seen, so that a request the autoscaler changed since is
 * decided on again rather than removed blind.
 *
 * <p>Meters: {@code muster.autoscaling.requests{outcome}} counts requests created, provisioned, failed, whose
 * booking expired or capacity was revoked, and deleted.
 */
public final class CapacityProvisioner implements AutoscalerSignal {
    private static final Logger log = LoggerFactory.getLogger(CapacityProvisioner.class);
    /** On a PodTemplate Muster made: the request whose pod set it is. */
    static final String REQUEST_LABEL = "scheduling.muster.dev/provisioning-request";

    private final KubernetesClient client;
    private final Executor apiCalls;
    private final Store<PodGroup> podGroups;
    private final Store<Job> jobs;
    private final Store<Queue> queues;
    private final AutoscalingConfig config;
    private final ProvisioningDecisions decisions;
    private final MeterRegistry meters;
    private final SharedIndexInformer<GenericKubernetesResource> informer;
    /** Requests being created, by namespace/name, until the informer has them: no second create meanwhile. */
    private final Map<String, ObservedRequest> creating = new ConcurrentHashMap<>();
    /** Requests being deleted, by namespace/name: not decided on again meanwhile. */
    private final Set<String> deleting = ConcurrentHashMap.newKeySet();
    /** The state each request was last seen in, so that each outcome is counted once. */
    private final Map<String, RequestState> seen = new ConcurrentHashMap<>();

    /**
     * Starts watching Muster's ProvisioningRequests; {@code onChange} asks for a cycle.
     */
    public CapacityProvisioner(KubernetesClient client, Executor apiCalls, Store<PodGroup> podGroups, Store<Job> jobs,
                               Store<Queue> queues, AutoscalingConfig config, MeterRegistry meters, Runnable onChange) {
        this.client = client;
        this.apiCalls = apiCalls;
        this.podGroups = podGroups;
        this.jobs = jobs;
        this.queues = queues;
        this.config = config;
        this.decisions = new ProvisioningDecisions(config.retryBackoff(), config.maxRetryBackoff());
        this.meters = meters;
        this.informer = client.genericKubernetesResources(ProvisioningRequestApi.CONTEXT).inAnyNamespace()
                .withLabel(ProvisioningRequestApi.ATTEMPT_LABEL).runnableInformer(0)
                .itemStore(new WithoutManagedFields<>());
        // As the shared informers do: a failed first list (the API server busy) is retried, not the end of it.
        informer.exceptionHandler((wasStarted, failure) -> {
            log.warn("informer for ProvisioningRequests: list or watch failed, retrying: {}", failure.toString());
            return true;
        });
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(GenericKubernetesResource request) {
                observe(request);
                onChange.run();
            }

            @Override
            public void onUpdate(GenericKubernetesResource before, GenericKubernetesResource request) {
                observe(request);
                onChange.run();
            }

            @Override
            public void onDelete(GenericKubernetesResource request, boolean finalStateUnknown) {
                String key = Cache.metaNamespaceKeyFunc(request);
                seen.remove(key);
                deleting.remove(key);
                onChange.run();
            }
        });
        informer.start();
    }

    @Override
    public Map<GroupKey, String> cycle(Collection<PendingGang> gangs, List<GangPlacement> results, Instant now) {
        Map<GroupKey, String> said = new HashMap<>();
        statuses(gangs, results, now).forEach((gang, status) -> said.put(gang, status.describe()));
        return said;
    }

    /**
     * Decides and starts the cycle's creates and deletes; decides nothing before the informer has listed the
     * requests once.
     *
     * @return per gang waiting for capacity, the request it waits for
     */
    Map<GroupKey, ProvisioningStatus> statuses(Collection<PendingGang> gangs, List<GangPlacement> results,
                                               Instant now) {
        if (!informer.hasSynced()) {
            return Map.of();
        }
        List<CapacityNeed> needs = CapacityNeeds.of(gangs, results, this::classOf);
        List<ObservedRequest> requests = new ArrayList<>();
        for (GenericKubernetesResource request : informer.getStore().list()) {
            String key = Cache.metaNamespaceKeyFunc(request);
            creating.remove(key);
            if (!deleting.contains(key)) {
                ProvisioningRequestReader.read(request).ifPresent(requests::add);
            }
        }
        requests.addAll(creating.values());
        ProvisioningPlan plan = decisions.decide(needs, CapacityNeeds.admitted(results), requests, now);
        for (ObservedRequest request : plan.consumed()) {
            GroupKey gang = request.gang();
            PodGroup group = podGroups.getByKey(gang.namespace() + "/" + gang.name());
            if (group != null && !request.name().equals(ProvisioningConsumption.podAnnotations(group)
                    .get(ProvisioningConsumption.POD_REQUEST))) {
                // On the cycle thread, before this cycle's verdict admits the gang (its PodGroup turns Inqueue): the
                // Job controller, which creates the pods on that admission, then finds the request they consume.
                annotatePodGroup(gang, request.name(), request.provisioningClass());
            }
        }
        for (ObservedRequest request : plan.deletes()) {
            String key = request.gang().namespace() + "/" + request.name();
            if (request.resourceVersion() != null && deleting.add(key)) {
                apiCalls.execute(() -> delete(request, key));
            }
        }
        for (WantedRequest wanted : plan.creates()) {
            String key = wanted.gang().namespace() + "/" + wanted.name();
            if (creating.putIfAbsent(key, new ObservedRequest(wanted.gang(), wanted.name(), null, wanted.attempt(),
                    RequestState.PENDING, null, null, wanted.need().provisioningClass(), List.of())) == null) {
                apiCalls.execute(() -> create(wanted, key));
            }
        }
        return plan.statuses();
    }

    private String classOf(GangInfo gang) {
        PodGroup group = podGroups.getByKey(gang.key().namespace() + "/" + gang.key().name());
        Optional<String> fromJob = Optional.ofNullable(group).flatMap(JobOwnership::controllingJob)
                .map(job -> jobs.getByKey(gang.key().namespace() + "/" + job))
                .map(job -> job.getMetadata().getAnnotations())
                .map(annotations -> annotations.get(ProvisioningRequestApi.CLASS_SETTING_ANNOTATION))
                .filter(name -> !name.isBlank());
        if (fromJob.isPresent()) {
            return fromJob.get();
        }
        Queue queue = queues.getByKey(gang.queue());
        String fromQueue = queue == null || queue.getMetadata().getAnnotations() == null ? null
                : queue.getMetadata().getAnnotations().get(ProvisioningRequestApi.CLASS_SETTING_ANNOTATION);
        return fromQueue == null || fromQueue.isBlank() ? config.provisioningClass() : fromQueue;
    }

    private void create(WantedRequest wanted, String key) {
        GroupKey gang = wanted.gang();
        try {
            PodGroup group = podGroups.getByKey(gang.namespace() + "/" + gang.name());
            Job job = group == null ? null : JobOwnership.controllingJob(group)
                    .map(name -> jobs.getByKey(gang.namespace() + "/" + name)).orElse(null);
            if (job == null) {
                log.info("{}: no ProvisioningRequest {}: its PodGroup or Job is gone", gang, wanted.name());
                creating.remove(key);
                return;
            }
            OwnerReference owner = new OwnerReferenceBuilder().withApiVersion(group.getApiVersion())
                    .withKind(group.getKind()).withName(group.getMetadata().getName())
                    .withUid(group.getMetadata().getUid()).withController(true).withBlockOwnerDeletion(false).build();
            Map<String, Pod> firstPodOfTask = new LinkedHashMap<>();
            int version = job.getStatus() == null ? 0 : job.getStatus().getVersion();
            for (Pod pod : JobPodRenderer.pods(job, version)) {
                firstPodOfTask.putIfAbsent(pod.getMetadata().getLabels().get(MusterLabels.TASK_NAME), pod);
            }
            List<Map<String, Object>> podSets = new ArrayList<>();
            for (Map.Entry<String, Integer> podSet : wanted.need().podSets().entrySet()) {
                Pod pod = firstPodOfTask.get(podSet.getKey());
                if (pod == null) {
                    log.warn("{}: no ProvisioningRequest {}: task {} renders no pod", gang, wanted.name(),
                            podSet.getKey());
                    creating.remove(key);
                    return;
                }
                String templateName = wanted.name() + "-" + podSet.getKey();
                PodTemplate template = new PodTemplateBuilder().withNewMetadata().withName(templateName)
                        .withNamespace(gang.namespace()).addToLabels(REQUEST_LABEL, wanted.name())
                        .addToLabels(MusterLabels.POD_GROUP, gang.name()).withOwnerReferences(owner).endMetadata()
                        .withNewTemplate().withNewMetadata().withLabels(pod.getMetadata().getLabels())
                        .withAnnotations(pod.getMetadata().getAnnotations()).endMetadata()
                        .withSpec(pod.getSpec()).endTemplate().build();
                createIfAbsent(() -> client.resources(PodTemplate.class).inNamespace(gang.namespace()).resource(template).create());
                podSets.add(Map.of("podTemplateRef", Map.of("name", templateName), "count", podSet.getValue()));
            }
            GenericKubernetesResource request = new GenericKubernetesResourceBuilder()
                    .withApiVersion(ProvisioningRequestApi.GROUP + "/" + ProvisioningRequestApi.VERSION)
                    .withKind(ProvisioningRequestApi.KIND).withNewMetadata().withName(wanted.name())
                    .withNamespace(gang.namespace()).addToLabels(MusterLabels.POD_GROUP, gang.name())
                    .addToLabels(ProvisioningRequestApi.ATTEMPT_LABEL, Integer.toString(wanted.attempt()))
                    .withOwnerReferences(owner).endMetadata()
                    .addToAdditionalProperties("spec", Map.of("provisioningClassName", wanted.need().provisioningClass(),
                            "podSets", podSets))
                    .build();
            createIfAbsent(() -> client.genericKubernetesResources(ProvisioningRequestApi.CONTEXT)
                    .inNamespace(gang.namespace()).resource(request).create());
            meters.counter("muster.autoscaling.requests", "outcome", "created").increment();
            log.info("{}: created ProvisioningRequest {} (class {}) for {} pod(s) of {}", gang, wanted.name(),
                    wanted.need().provisioningClass(), wanted.need().podSets().values().stream()
                            .mapToInt(Integer::intValue).sum(), wanted.need().podSets());
        } catch (KubernetesClientException e) {
            creating.remove(key);
            log.warn("{}: creating ProvisioningRequest {} failed, retried next cycle: {}", gang, wanted.name(),
                    e.getMessage());
        }
    }

    private static void createIfAbsent(Runnable create) {
        try {
            create.run();
        } catch (KubernetesClientException e) {
            // An earlier attempt of this scheduler (or of one before a restart) made it: the names are the gang's.
            if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                throw e;
            }
        }
    }

    private void delete(ObservedRequest request, String key) {
        GroupKey gang = request.gang();
        try {
            client.genericKubernetesResources(ProvisioningRequestApi.CONTEXT).inNamespace(gang.namespace())
                    .withName(request.name()).lockResourceVersion(request.resourceVersion()).delete();
            for (String template : request.podTemplates()) {
                client.resources(PodTemplate.class).inNamespace(gang.namespace()).withName(template).delete();
            }
            PodGroup group = podGroups.getByKey(gang.namespace() + "/" + gang.name());
            if (group != null && request.name().equals(ProvisioningConsumption.podAnnotations(group)
                    .get(ProvisioningConsumption.POD_REQUEST))) {
                annotatePodGroup(gang, null, null);
            }
            meters.counter("muster.autoscaling.requests", "outcome", "deleted").increment();
            log.info("{}: deleted ProvisioningRequest {} ({}): the gang no longer needs it as it stands", gang,
                    request.name(), request.state());
        } catch (KubernetesClientException e) {
            deleting.remove(key);
            log.info("{}: deleting ProvisioningRequest {} failed, decided again next cycle: {}", gang, request.name(),
                    e.getMessage());
        }
    }

    private void observe(GenericKubernetesResource request) {
        ProvisioningRequestReader.read(request).ifPresent(observed -> {
            RequestState before = seen.put(Cache.metaNamespaceKeyFunc(request), observed.state());
            if (before != observed.state() && observed.state() != RequestState.PENDING
                    && observed.state() != RequestState.ACCEPTED) {
                meters.counter("muster.autoscaling.requests", "outcome",
                        observed.state().name().toLowerCase(Locale.ROOT).replace('_', '-')).increment();
                log.info("{}: ProvisioningRequest {} is {}{}", observed.gang(), observed.name(), observed.state(),
                        observed.message() == null ? "" : ": " + observed.message());
            }
        });
    }

    /**
     * Names the request (or, with {@code null}s, none) on the gang's PodGroup for its pods to consume
     * ({@link ProvisioningConsumption}). A merge patch of these two annotations only, which clobbers no other writer.
     */
    private void annotatePodGroup(GroupKey gang, String request, String provisioningClass) {
        Map<String, Object> annotations = new HashMap<>();
        annotations.put(ProvisioningConsumption.REQUEST, request);
        annotations.put(ProvisioningConsumption.CLASS, provisioningClass);
        try {
            client.resources(PodGroup.class).inNamespace(gang.namespace()).withName(gang.name())
                    .patch(PatchContext.of(PatchType.JSON_MERGE),
                            Serialization.asJson(Map.of("metadata", Map.of("annotations", annotations))));
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
                log.warn("{}: could not name ProvisioningRequest {} on the PodGroup for its pods: {}", gang, request,
                        e.getMessage());
            }
        }
    }

    /** Stops watching the requests; the requests stay, for the next scheduler to decide on. */
    @Override
    public void close() {
        informer.close();
    }
}
