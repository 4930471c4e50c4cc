package dev.muster.job;

import dev.muster.job.decision.JobPodPlanner;
import dev.muster.job.decision.JobStatusDecider;
import dev.muster.job.decision.NetworkTopologyTiers;
import dev.muster.job.decision.PodGroupPlanner;
import dev.muster.api.batch.v1alpha1.JobOwnership;
import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.support.controller.ApiErrors;
import dev.muster.support.controller.GuardedDelete;
import dev.muster.support.event.EventRecorder;
import dev.muster.job.plugin.JobPlugins;
import dev.muster.job.plugin.PluginObject;
import dev.muster.support.autoscaling.ProvisioningConsumption;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The job controller's write side for a job's children. Pods are create-only: an existing pod is never
 * changed, and one that already exists (409 {@code AlreadyExists}) counts as created. The PodGroup's controller-owned fields
 * are updated with the resourceVersion they were read at, so a concurrent change makes the API server
 * refuse the write instead of being overwritten.
 */
final class JobResourceWriter {
    private static final Logger log = LoggerFactory.getLogger(JobResourceWriter.class);

    private final KubernetesClient client;
    private final EventRecorder events;
    private final Executor apiCalls;
    private final boolean volcanoPodLabels;
    private final NetworkTopologyTiers tiers;
    private final CreatedPods created;

    /** As the production defaults ({@link JobControllerConfig#defaults}), on the system clock. */
    JobResourceWriter(KubernetesClient client, EventRecorder events, Executor apiCalls) {
        this(client, events, apiCalls, JobControllerConfig.defaults().volcanoPodLabels(),
                JobControllerConfig.defaults().networkTopologyTiers(), new CreatedPods(Clock.systemUTC()));
    }

    /**
     * @param apiCalls         runs the pod creations of one job in parallel ({@link SlowStartBatch})
     * @param volcanoPodLabels whether the pods carry Volcano's labels beside Muster's
     * @param tiers            the cluster's network tiers, onto which a job's {@code networkTopology} is mapped
     * @param created          the pods created and not yet seen by the cache, which are not created again
     */
    JobResourceWriter(KubernetesClient client, EventRecorder events, Executor apiCalls, boolean volcanoPodLabels,
                      NetworkTopologyTiers tiers, CreatedPods created) {
        this.client = client;
        this.events = events;
        this.apiCalls = apiCalls;
        this.volcanoPodLabels = volcanoPodLabels;
        this.tiers = tiers;
        this.created = created;
    }

    /**
     * Creates the job's PodGroup, or brings the fields the job controller owns up to date. A PodGroup of
     * that name that the job does not control is left alone: someone else made it on purpose.
     */
    void ensurePodGroup(Job job, Set<String> openTasks, Optional<PodGroup> existing) {
        PodGroup desired = PodGroupPlanner.desiredPodGroup(job, openTasks, tiers);
        if (existing.isEmpty()) {
            createIfAbsent(desired);
            return;
        }
        PodGroup actual = existing.get();
        if (!JobOwnership.isControlledBy(actual, job)) {
            log.debug("job {}/{}: PodGroup {} exists and is not controlled by the job; leaving it alone",
                    job.getMetadata().getNamespace(), job.getMetadata().getName(), actual.getMetadata().getName());
            return;
        }
        if (OwnedPodGroupFields.match(actual.getSpec(), desired.getSpec())) {
            return;
        }
        PodGroup updated = Serialization.clone(actual);
        updated.setSpec(OwnedPodGroupFields.merge(actual.getSpec(), desired.getSpec()));
        client.resource(updated).update();
    }

    /**
     * Creates the pods of {@code version} of the open tasks that do not exist yet, in parallel slow-start
     * batches; returns how many this call created, or nothing, creating nothing, when pods are missing and
     * {@code cacheConfirmed} says the job as cached may be stale. A pod this writer created that {@code existing}
     * (the cache) does not show yet is not created again ({@link CreatedPods}). A failed creation is recorded as a
     * {@code FailedCreatePod} event and rethrown after its batch, so the reconcile retries with backoff.
     */
    OptionalInt createMissingPods(Job job, int version, List<Pod> existing, Set<String> openTasks,
                                  BooleanSupplier cacheConfirmed) {
        return createMissingPods(job, version, existing, unseenCreations(job), openTasks, Map.of(), cacheConfirmed);
    }

    /**
     * As {@link #createMissingPods(Job, int, List, Set, BooleanSupplier)}, with the job's unseen creations read
     * before {@code existing} was ({@link #unseenCreations}), each pod with {@code annotations} too (those that
     * consume a provisioned ProvisioningRequest's capacity, {@link ProvisioningConsumption}).
     */
    OptionalInt createMissingPods(Job job, int version, List<Pod> existing, Set<String> unseen, Set<String> openTasks,
                                  Map<String, String> annotations, BooleanSupplier cacheConfirmed) {
        String uid = job.getMetadata().getUid();
        Set<String> names = existing.stream().map(p -> p.getMetadata().getName()).collect(Collectors.toSet());
        names.addAll(unseen);
        List<Pod> missing = JobPodPlanner.missingPods(job, version, names, openTasks, volcanoPodLabels);
        if (!annotations.isEmpty()) {
            missing.forEach(pod -> {
                Map<String, String> all = new LinkedHashMap<>(pod.getMetadata().getAnnotations());
                all.putAll(annotations);
                pod.getMetadata().setAnnotations(all);
            });
        }
        if (missing.isEmpty()) {
            return OptionalInt.of(0);
        }
        if (!cacheConfirmed.getAsBoolean()) {
            return OptionalInt.empty();
        }
        createUnreadPluginObjects(job);
        AtomicInteger count = new AtomicInteger();
        try {
            SlowStartBatch.run(missing, apiCalls, pod -> {
                String name = pod.getMetadata().getName();
                // Expected before it is sent: the cache's add event may come before the call returns.
                created.expect(uid, name);
                boolean made = false;
                try {
                    made = createIfAbsent(pod);
                } finally {
                    // A name taken already may be an earlier job's pod, which this job's cache never shows.
                    if (!made) {
                        created.notCreated(uid, name);
                    }
                }
                if (made) {
                    count.incrementAndGet();
                }
            });
        } catch (SlowStartBatch.Failure failure) {
            String pod = failure.item() instanceof Pod p ? p.getMetadata().getName() : "?";
            events.record(job, EventRecorder.WARNING, "FailedCreatePod",
                    "could not create pod " + pod + ": " + failure.getCause().getMessage());
            throw failure.getCause();
        }
        return OptionalInt.of(count.get());
    }

    /** The pods this writer created for the job that the cache has not shown yet; read before the job's pods. */
    Set<String> unseenCreations(Job job) {
        return created.expected(job.getMetadata().getUid());
    }

    /**
     * When the oldest of the job's creations the cache has not shown stops holding its pod back: the job must be
     * decided again then, should the cache never show it (deleted before it was seen).
     */
    Optional<Instant> unseenCreationsExpireAt(Job job) {
        return created.nextExpiry(job.getMetadata().getUid());
    }

    /**
     * Whether the job as cached is the job as it is: the API server has it at the same resourceVersion. A
     * quorum read, asked only before acting on a decision that no optimistic-locked write confirmed.
     */
    boolean isCurrent(Job job) {
        Job live = client.resources(Job.class).inNamespace(job.getMetadata().getNamespace())
                .withName(job.getMetadata().getName()).get();
        return live != null && Objects.equals(live.getMetadata().getResourceVersion(), job.getMetadata().getResourceVersion());
    }

    /**
     * Creates what the job's plugins want beside its pods and is not in the cache (again, if it was deleted),
     * as the job's controlled children, and brings the data of a synced ConfigMap up to date with the
     * resourceVersion it was read at. An object of that name the job does not control is left alone.
     */
    void ensurePluginObjects(Job job, Function<PluginObject, Optional<HasMetadata>> cached) {
        String namespace = job.getMetadata().getNamespace();
        for (PluginObject object : JobPlugins.BUILT_IN.onJobCreate(job)) {
            if (JobPlugins.CREATED_UNREAD.contains(object.type())) {
                continue;
            }
            HasMetadata existing = cached.apply(object).orElse(null);
            if (existing == null) {
                create(job, object);
            } else if (!JobOwnership.isControlledBy(existing, job)) {
                log.debug("job {}/{}: {} exists and is not controlled by the job; leaving it alone",
                        namespace, job.getMetadata().getName(), object.reference());
            } else if (object.synced() && existing instanceof ConfigMap actual
                    && object.build().get() instanceof ConfigMap desired
                    && !Objects.equals(actual.getData(), desired.getData())) {
                ConfigMap updated = Serialization.clone(actual);
                updated.setData(desired.getData());
                client.resource(updated).update();
                log.info("job {}/{}: updated {}", namespace, job.getMetadata().getName(), object.reference());
            }
        }
    }

    /**
     * Creates the plugin objects the controller does not read ({@link JobPlugins#CREATED_UNREAD}, the ssh key
     * Secret), before the pods that mount them: one that exists (409) is left as it is, and one deleted while
     * its job runs is made again before the pods that replace those it served.
     */
    private void createUnreadPluginObjects(Job job) {
        for (PluginObject object : JobPlugins.BUILT_IN.onJobCreate(job)) {
            if (JobPlugins.CREATED_UNREAD.contains(object.type())) {
                create(job, object);
            }
        }
    }

    /** Creates the object as one of the job's controlled children, labelled with its name; a 409 is success. */
    private void create(Job job, PluginObject object) {
        HasMetadata desired = object.build().get();
        desired.getMetadata().setNamespace(job.getMetadata().getNamespace());
        desired.getMetadata().setOwnerReferences(List.of(JobOwnership.ownerReference(job)));
        // The label selects the object into the controller's cache.
        Map<String, String> labels = new LinkedHashMap<>(desired.getMetadata().getLabels() == null
                ? Map.of() : desired.getMetadata().getLabels());
        labels.put(MusterLabels.JOB_NAME, job.getMetadata().getName());
        desired.getMetadata().setLabels(labels);
        if (createIfAbsent(desired)) {
            log.info("job {}/{}: created {}", job.getMetadata().getNamespace(), job.getMetadata().getName(),
                    object.reference());
        }
    }

    /**
     * Deletes the pod the decision saw, by its uid: false if it was gone already, or if the pod under its name
     * is another one (re-created), which this decision knows nothing about.
     */
    boolean deletePod(Pod pod) {
        try {
            return GuardedDelete.ofUid(client, pod);
        } catch (KubernetesClientException e) {
            if (ApiErrors.isConflict(e)) {
                log.info("pod {}/{}: not deleted, the pod under that name is no longer uid {}",
                        pod.getMetadata().getNamespace(), pod.getMetadata().getName(), pod.getMetadata().getUid());
                return false;
            }
            throw e;
        }
    }

    /**
     * Deletes a job whose {@code ttlSecondsAfterFinished} ran out in the cache, as kube's TTL-after-finished
     * controller does: the job is read fresh, its expiry judged again on that copy (its TTL may just have been
     * raised, or the job re-created under the same name), and deleted with its uid and resourceVersion as
     * preconditions, so that a change after the read makes the API server refuse. Its pods and PodGroup
     * follow through their ownerReferences.
     *
     * @return whether the job is gone or going; false if the fresh copy is not due yet or changed under the delete
     */
    boolean deleteExpiredJob(Job cached, Instant now) {
        String namespace = cached.getMetadata().getNamespace();
        String name = cached.getMetadata().getName();
        Job fresh = client.resources(Job.class).inNamespace(namespace).withName(name).get();
        if (fresh == null || fresh.getMetadata().getDeletionTimestamp() != null) {
            return true;
        }
        Optional<Instant> expiry = JobStatusDecider.ttlExpiry(fresh, fresh.getStatus());
        if (!Objects.equals(fresh.getMetadata().getUid(), cached.getMetadata().getUid())
                || expiry.isEmpty() || expiry.get().isAfter(now)) {
            log.info("job {}/{}: not deleted, its TTL has not run out on the API server's copy (uid {}, expiry {})",
                    namespace, name, fresh.getMetadata().getUid(), expiry.map(Instant::toString).orElse("none"));
            return false;
        }
        try {
            GuardedDelete.ofVersion(client, fresh);
            return true;
        } catch (KubernetesClientException e) {
            if (ApiErrors.isConflict(e)) {
                log.info("job {}/{}: not deleted, it changed since it was read: {}", namespace, name, e.getMessage());
                return false;
            }
            throw e;
        }
    }

    private boolean createIfAbsent(HasMetadata object) {
        try {
            client.resource(object).create();
            return true;
        } catch (KubernetesClientException e) {
            if (ApiErrors.alreadyExists(e)) {
                return false;
            }
            throw e;
        }
    }
}
