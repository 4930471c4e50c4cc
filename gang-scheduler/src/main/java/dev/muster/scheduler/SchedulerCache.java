package dev.muster.scheduler;

import dev.muster.api.LimitRangeDefaults;
import dev.muster.api.PodNode;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupDefaults;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.api.scheduling.v1alpha1.QueueAccess;
import dev.muster.api.scheduling.v1alpha1.QueueRefusal;
import dev.muster.api.scheduling.v1alpha1.QueueSpec;
import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.dra.DeviceAllocation;
import dev.muster.scheduler.core.dra.DeviceCatalog;
import dev.muster.scheduler.core.dra.DeviceTaintRule;
import dev.muster.scheduler.core.dra.DeviceClaim;
import dev.muster.scheduler.core.dra.DeviceLedger;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import dev.muster.scheduler.core.cluster.ClusterState;
import dev.muster.scheduler.core.model.NamespaceQuota;
import dev.muster.scheduler.core.model.QuotaFacts;
import dev.muster.scheduler.core.model.BoundMembers;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.GangMember;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.MissingPodGroup;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.QueueInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.model.RunningGang;
import dev.muster.scheduler.core.model.VolumeCatalog;
import dev.muster.scheduler.core.placement.PodPlacement;
import dev.muster.scheduler.core.queue.QueueHold;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import dev.muster.gang.JobAdmissionRule;

import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The scheduler's view of the cluster, fed by informer events: node capacity and what every bound pod
 * uses (whoever bound it), namespaces' labels, claims, volumes and storage classes, the pending pods of
 * our scheduler grouped by gang, how many pods of each gang are bound, the PodGroups' requirements, and
 * the Jobs whose pods wait for their gang's admission.
 *
 * <p>Pods the scheduler has placed are <em>assumed</em>, as in kube-scheduler: they use their node's
 * capacity at once, before the informer shows them bound, so the next cycle cannot place other pods on
 * the same room; a failed bind {@link #forget forgets} the assumption and the pod is pending again.
 * Likewise pods a cycle evicts are assumed to be leaving ({@link #assumeEvicted}): they keep their room until
 * they are gone, but stop making their gang a running one, so that the next cycle, which may start before
 * the informer shows them Terminating, does not take them again; a refused eviction
 * {@link #forgetEviction forgets} it.
 *
 * <p>Informer threads and the cycle thread call in concurrently; every method is synchronized, and
 * each is quick (no I/O).
 */
final class SchedulerCache {
    private final ClusterState cluster = new ClusterState();
    private final Map<String, CachedPod> pods = new HashMap<>();
    private final Map<GroupKey, GroupPods> groups = new HashMap<>();
    private final Map<GroupKey, GangRequirements> podGroups = new HashMap<>();
    private final Map<String, JobPodTemplates> jobs = new HashMap<>();
    /** PodGroups by the Job that owns them ({@code namespace/name}), to re-check them when the Job changes. */
    private final Map<String, Set<GroupKey>> groupsOfJob = new HashMap<>();
    /**
     * PodGroups whose Job waits for admission, kept up to date as Jobs and PodGroups change, so that a cycle
     * does not look up the Job of every PodGroup in the cluster, finished ones included.
     */
    private final Set<GroupKey> waitingForAdmission = new LinkedHashSet<>();
    private final PriorityClasses priorityClasses = new PriorityClasses();
    /** The Queues by name, as the placement core sees them. */
    private final Map<String, QueueInfo> queues = new TreeMap<>();
    /** The Queues' specs by name, as {@link QueueAccess} reads them (the tree and each namespaceSelector). */
    private final Map<String, QueueSpec> queueSpecs = new HashMap<>();
    /** Per namespace, its LimitRanges by name. */
    private final Map<String, Map<String, LimitRange>> limitRanges = new HashMap<>();
    /** Per namespace with any, the container defaults of its LimitRanges. */
    private final Map<String, LimitRangeDefaults> limitRangeDefaults = new HashMap<>();
    /** Per namespace, its ResourceQuotas by name, as the scheduler judges gangs by them. */
    private final Map<String, Map<String, NamespaceQuota>> quotas = new HashMap<>();
    private final VolumeCatalog volumes = new VolumeCatalog();
    private final DeviceCatalog devices = new DeviceCatalog();
    /**
     * Per pod ({@code namespace/name}) with claims made from templates: the templates, and the devices its
     * requests count for them, so that a template seen after the pod (informers list in any order) or
     * changed since is counted again.
     */
    private final Map<String, DeviceShare> deviceShares = new HashMap<>();
    private final JobAdmissionRule jobAdmission;
    private final boolean volcanoPodLabels;

    /**
     * @param jobAdmission     which Jobs wait for their gang's admission, as the Job controller holds them
     * @param volcanoPodLabels whether the Job controller gives its pods Volcano's labels too
     */
    SchedulerCache(JobAdmissionRule jobAdmission, boolean volcanoPodLabels) {
        this.jobAdmission = jobAdmission;
        this.volcanoPodLabels = volcanoPodLabels;
    }

    /** @return whether the node's change can make a pending pod schedulable */
    synchronized boolean putNode(Node node) {
        return cluster.putNode(KubeObjects.nodeInfo(node));
    }

    /**
     * Forgets a node. Pods still bound to it stop counting toward their gang's quorum (and their room is
     * gone with the node), which changes the verdict of a gang with pods waiting.
     *
     * @return whether a gang with pending pods had pods bound to the node
     */
    synchronized boolean removeNode(Node node) {
        String name = node.getMetadata().getName();
        cluster.removeNode(name);
        return groups.values().stream().anyMatch(group -> !group.pending.isEmpty() && group.bound.anyOn(name));
    }

    /** @return whether the devices changed while pods wait */
    synchronized boolean putResourceSlice(GenericKubernetesResource slice) {
        return devices.putSlice(DraObjects.slice(slice)) && anyPending();
    }

    synchronized boolean removeResourceSlice(GenericKubernetesResource slice) {
        return devices.removeSlice(slice.getMetadata().getName()) && anyPending();
    }

    synchronized boolean putDeviceClass(GenericKubernetesResource deviceClass) {
        return devices.putClass(DraObjects.deviceClass(deviceClass)) && anyPending();
    }

    synchronized boolean removeDeviceClass(GenericKubernetesResource deviceClass) {
        return devices.removeClass(deviceClass.getMetadata().getName()) && anyPending();
    }

    /** @return whether the rule changed while pods wait: it may taint devices they need, or no longer */
    synchronized boolean putDeviceTaintRule(DeviceTaintRule rule) {
        return devices.putTaintRule(rule) && anyPending();
    }

    synchronized boolean removeDeviceTaintRule(GenericKubernetesResource rule) {
        return devices.removeTaintRule(rule.getMetadata().getName()) && anyPending();
    }

    /** @return whether the claim changed while pods wait: its allocation may have freed or taken devices */
    synchronized boolean putResourceClaim(GenericKubernetesResource claim) {
        return devices.putClaim(DraObjects.claim(claim)) && anyPending();
    }

    synchronized boolean removeResourceClaim(GenericKubernetesResource claim) {
        return devices.removeClaim(claim.getMetadata().getNamespace() + "/" + claim.getMetadata().getName())
                && anyPending();
    }

    synchronized boolean putResourceClaimTemplate(GenericKubernetesResource template) {
        String key = template.getMetadata().getNamespace() + "/" + template.getMetadata().getName();
        return devices.putTemplate(DraObjects.template(template)) && (recountDevices(key) || anyPending());
    }

    synchronized boolean removeResourceClaimTemplate(GenericKubernetesResource template) {
        String key = template.getMetadata().getNamespace() + "/" + template.getMetadata().getName();
        return devices.removeTemplate(key) && (recountDevices(key) || anyPending());
    }

    /** @return whether the claim changed while pods wait, whose volume topology it may be */
    synchronized boolean putClaim(PersistentVolumeClaim claim) {
        return volumes.putClaim(KubeObjects.claimInfo(claim)) && anyPending();
    }

    /** @return whether the claim was known while pods wait */
    synchronized boolean removeClaim(PersistentVolumeClaim claim) {
        return volumes.removeClaim(claim.getMetadata().getNamespace(), claim.getMetadata().getName()) && anyPending();
    }

    /** @return whether the volume changed while pods wait */
    synchronized boolean putVolume(PersistentVolume volume) {
        return volumes.putVolume(KubeObjects.persistentVolumeInfo(volume)) && anyPending();
    }

    /** @return whether the volume was known while pods wait */
    synchronized boolean removeVolume(PersistentVolume volume) {
        return volumes.removeVolume(volume.getMetadata().getName()) && anyPending();
    }

    /** @return whether the class changed while pods wait */
    synchronized boolean putStorageClass(StorageClass storageClass) {
        return volumes.putStorageClass(KubeObjects.storageClassInfo(storageClass)) && anyPending();
    }

    /** @return whether the class was known while pods wait */
    synchronized boolean removeStorageClass(StorageClass storageClass) {
        return volumes.removeStorageClass(storageClass.getMetadata().getName()) && anyPending();
    }

    /** @return whether what the quota limits or counts as used changed while a Job's gang waits for admission */
    synchronized boolean putResourceQuota(ResourceQuota quota) {
        String namespace = quota.getMetadata().getNamespace();
        String name = quota.getMetadata().getName();
        Optional<NamespaceQuota> now = KubeObjects.namespaceQuota(quota);
        Map<String, NamespaceQuota> ofNamespace = quotas.computeIfAbsent(namespace, ns -> new TreeMap<>());
        NamespaceQuota before = now.isPresent() ? ofNamespace.put(name, now.get()) : ofNamespace.remove(name);
        if (ofNamespace.isEmpty()) {
            quotas.remove(namespace);
        }
        return !Objects.equals(before, now.orElse(null)) && !waitingForAdmission.isEmpty();
    }

    /** @return whether a quota that held gangs is gone while a Job's gang waits for admission */
    synchronized boolean removeResourceQuota(ResourceQuota quota) {
        Map<String, NamespaceQuota> ofNamespace = quotas.get(quota.getMetadata().getNamespace());
        boolean known = ofNamespace != null && ofNamespace.remove(quota.getMetadata().getName()) != null;
        if (ofNamespace != null && ofNamespace.isEmpty()) {
            quotas.remove(quota.getMetadata().getNamespace());
        }
        return known && !waitingForAdmission.isEmpty();
    }

    /**
     * Records a LimitRange.
     *
     * @return whether the container defaults of its namespace changed: the Jobs there are then to be put again, so
     *         that the pods they will create are read with the defaults the API server will give them
     */
    synchronized boolean putLimitRange(LimitRange range) {
        String namespace = range.getMetadata().getNamespace();
        limitRanges.computeIfAbsent(namespace, ns -> new TreeMap<>()).put(range.getMetadata().getName(), range);
        return recomputeLimitRangeDefaults(namespace);
    }

    /** @return whether the container defaults of its namespace changed, as {@link #putLimitRange} */
    synchronized boolean removeLimitRange(LimitRange range) {
        String namespace = range.getMetadata().getNamespace();
        Map<String, LimitRange> ofNamespace = limitRanges.get(namespace);
        if (ofNamespace == null || ofNamespace.remove(range.getMetadata().getName()) == null) {
            return false;
        }
        if (ofNamespace.isEmpty()) {
            limitRanges.remove(namespace);
        }
        return recomputeLimitRangeDefaults(namespace);
    }

    private boolean recomputeLimitRangeDefaults(String namespace) {
        LimitRangeDefaults now = LimitRangeDefaults.of(List.copyOf(limitRanges.getOrDefault(namespace, Map.of()).values()));
        LimitRangeDefaults before = now.isEmpty() ? limitRangeDefaults.remove(namespace)
                : limitRangeDefaults.put(namespace, now);
        return !now.equals(before == null ? LimitRangeDefaults.NONE : before);
    }

    /** @return whether the namespace's labels changed, which can change what a namespaceSelector selects */
    synchronized boolean putNamespace(Namespace namespace) {
        return cluster.putNamespace(namespace.getMetadata().getName(), namespace.getMetadata().getLabels());
    }

    /** @return whether the namespace was known */
    synchronized boolean removeNamespace(Namespace namespace) {
        return cluster.removeNamespace(namespace.getMetadata().getName());
    }

    /** @return whether the change can make a pending pod schedulable: a new pending pod, or freed capacity */
    synchronized boolean putPod(Pod pod) {
        String key = Cache.metaNamespaceKeyFunc(pod);
        CachedPod before = pods.get(key);
        CachedPod classified = classify(pod, before);
        // An assumed pod comes back as it was, its devices already counted.
        CachedPod after = classified == before ? before : withDeviceRequests(key, classified, DraObjects.templateKeys(pod));
        replace(key, before, after);
        boolean newlyPending = after != null && after.state() == PodState.PENDING
                && (before == null || before.state() != PodState.PENDING || !before.info().equals(after.info()));
        return newlyPending || freedCapacity(before, after);
    }

    /**
     * The pod with the devices its template-made claims ask for added to its requests, as
     * {@code deviceclass.resource.kubernetes.io/<class>}: what the nodes offer by count and queues account.
     * Read from the templates as they are when the pod is seen; a shared claim's devices count for no pod.
     */
    private CachedPod withDeviceRequests(String key, CachedPod cached, List<String> templateKeys) {
        if (cached == null || templateKeys.isEmpty()) {
            deviceShares.remove(key);
            return cached;
        }
        Map<String, Long> counts = devices.requestsOf(templateKeys);
        deviceShares.put(key, new DeviceShare(templateKeys, counts));
        return counts.isEmpty() ? cached : cached.withInfo(cached.info().withRequests(
                cached.info().requests().plus(ResourceVector.of(counts))));
    }

    /** Counts again the devices of the pods whose claims the template makes; whether any count changed. */
    private boolean recountDevices(String templateKey) {
        boolean changed = false;
        for (Map.Entry<String, DeviceShare> entry : deviceShares.entrySet()) {
            DeviceShare share = entry.getValue();
            Map<String, Long> now = share.templates().contains(templateKey) ? devices.requestsOf(share.templates())
                    : share.counted();
            CachedPod before = pods.get(entry.getKey());
            if (now.equals(share.counted()) || before == null) {
                continue;
            }
            Map<String, Long> requests = new HashMap<>(before.info().requests().asMap());
            share.counted().forEach((resource, count) -> requests.merge(resource, -count, Long::sum));
            now.forEach((resource, count) -> requests.merge(resource, count, Long::sum));
            replace(entry.getKey(), before, before.withInfo(before.info().withRequests(ResourceVector.of(requests))));
            entry.setValue(new DeviceShare(share.templates(), now));
            changed = true;
        }
        return changed;
    }

    private PodInfo withDeviceRequests(PodInfo info, List<String> templateKeys) {
        Map<String, Long> counts = devices.requestsOf(templateKeys);
        return counts.isEmpty() ? info : info.withRequests(info.requests().plus(ResourceVector.of(counts)));
    }

    /** @return whether the deleted pod freed capacity */
    synchronized boolean removePod(Pod pod) {
        String key = Cache.metaNamespaceKeyFunc(pod);
        CachedPod before = pods.get(key);
        replace(key, before, null);
        deviceShares.remove(key);
        return freedCapacity(before, null);
    }

    /** @return whether the PodGroup is new or its requirements changed while pods of it wait */
    synchronized boolean putPodGroup(PodGroup podGroup) {
        return putRequirements(KubeObjects.groupKey(podGroup), KubeObjects.gangRequirements(podGroup));
    }

    /**
     * A Kubernetes PodGroup ({@link WorkloadPodGroups}); one whose policy does not read is treated as absent.
     *
     * @return whether the group is new or its requirements changed while pods of it wait, or pods of it wait
     *         and it went away
     */
    synchronized boolean putWorkloadPodGroup(GenericKubernetesResource podGroup) {
        Optional<GangRequirements> requirements = WorkloadPodGroups.requirements(podGroup);
        return requirements.isPresent() ? putRequirements(WorkloadPodGroups.key(podGroup), requirements.get())
                : removeWorkloadPodGroup(podGroup);
    }

    /** @return whether pods of the Kubernetes PodGroup wait, which must now be told that their group is missing */
    synchronized boolean removeWorkloadPodGroup(GenericKubernetesResource podGroup) {
        return removeRequirements(WorkloadPodGroups.key(podGroup));
    }

    private boolean putRequirements(GroupKey key, GangRequirements now) {
        GangRequirements before = podGroups.put(key, now);
        if (before != null && before.ownerJobKey() != null && !before.ownerJobKey().equals(now.ownerJobKey())) {
            forgetOwner(key, before);
        }
        if (now.ownerJobKey() != null) {
            groupsOfJob.computeIfAbsent(now.ownerJobKey(), k -> new HashSet<>()).add(key);
        }
        recheckAdmission(key);
        GroupPods waiting = groups.get(key);
        return !now.equals(before) && (waiting != null && !waiting.pending.isEmpty() || waitsForAdmission(now));
    }

    /**
     * Records a Job's templates and whether it waits for admission.
     *
     * @return whether that changed for a job whose PodGroup exists, which can admit or withdraw a gang
     */
    synchronized boolean putJob(Job job) {
        String key = Cache.metaNamespaceKeyFunc(job);
        JobPodTemplates now = JobPodTemplates.of(job, jobAdmission, volcanoPodLabels,
                limitRangeDefaults.getOrDefault(job.getMetadata().getNamespace(), LimitRangeDefaults.NONE), jobs.get(key));
        JobPodTemplates before = jobs.put(key, now);
        groupsOfJob.getOrDefault(key, Set.of()).forEach(this::recheckAdmission);
        return !now.equals(before) && (now.waiting() || before != null && before.waiting())
                && podGroups.containsKey(GroupKey.podGroup(job.getMetadata().getNamespace(),
                JobDefaults.podGroupName(now.name())));
    }

    /** @return whether the job waited for admission, which its gang no longer does */
    synchronized boolean removeJob(Job job) {
        String key = Cache.metaNamespaceKeyFunc(job);
        JobPodTemplates before = jobs.remove(key);
        groupsOfJob.getOrDefault(key, Set.of()).forEach(this::recheckAdmission);
        return before != null && before.waiting();
    }

    /** Whether the PodGroup exists, so that a verdict about it has a reader. */
    synchronized boolean hasPodGroup(GroupKey key) {
        return podGroups.containsKey(key);
    }

    private boolean waitsForAdmission(GangRequirements spec) {
        JobPodTemplates job = ownerJob(spec);
        return job != null && job.waiting();
    }

    /** The Job that owns the PodGroup, or {@code null} if no Job owns it or the job is not known (yet). */
    private JobPodTemplates ownerJob(GangRequirements spec) {
        return spec.ownerJobKey() == null ? null : jobs.get(spec.ownerJobKey());
    }

    private void recheckAdmission(GroupKey key) {
        GangRequirements spec = podGroups.get(key);
        if (spec != null && waitsForAdmission(spec)) {
            waitingForAdmission.add(key);
        } else {
            waitingForAdmission.remove(key);
        }
    }

    private void forgetOwner(GroupKey key, GangRequirements spec) {
        String jobKey = spec.ownerJobKey();
        Set<GroupKey> owned = groupsOfJob.get(jobKey);
        if (owned != null && owned.remove(key) && owned.isEmpty()) {
            groupsOfJob.remove(jobKey);
        }
    }

    /** @return whether pods of the group wait, which must now be told that their group is missing */
    synchronized boolean removePodGroup(PodGroup podGroup) {
        GroupKey key = KubeObjects.groupKey(podGroup);
        GangRequirements before = podGroups.get(key);
        if (before != null && before.ownerJobKey() != null) {
            forgetOwner(key, before);
        }
        waitingForAdmission.remove(key);
        return removeRequirements(key);
    }

    /** @return whether pods of the group wait, which must now be told that their group is missing */
    private boolean removeRequirements(GroupKey key) {
        podGroups.remove(key);
        GroupPods waiting = groups.get(key);
        return waiting != null && !waiting.pending.isEmpty();
    }

    /** @return whether the queue changed while gangs wait, which can reorder, hold or release them */
    synchronized boolean putQueue(Queue queue) {
        QueueInfo now = KubeObjects.queueInfo(queue);
        QueueSpec before = queueSpecs.put(now.name(), queue.getSpec());
        // The selector is not in QueueInfo; QueueSpec has no equals, so specs compare as JSON, as stored.
        boolean selectorChanged = before == null || !Serialization.jsonMapper().valueToTree(before.getNamespaceSelector())
                .equals(Serialization.jsonMapper().valueToTree(queue.getSpec().getNamespaceSelector()));
        return (!now.equals(queues.put(now.name(), now)) || selectorChanged) && anyWaiting();
    }

    /** @return whether gangs wait, which may now be held or reordered */
    synchronized boolean removeQueue(Queue queue) {
        queueSpecs.remove(queue.getMetadata().getName());
        return queues.remove(queue.getMetadata().getName()) != null && anyWaiting();
    }

    private boolean anyWaiting() {
        return anyPending() || !waitingForAdmission.isEmpty();
    }

    /** @return whether the class's value or default-ness changed while pods wait, which can reorder gangs */
    synchronized boolean putPriorityClass(PriorityClass priorityClass) {
        return priorityClasses.put(priorityClass) && anyPending();
    }

    /** @return whether pods wait, whose order may change */
    synchronized boolean removePriorityClass(PriorityClass priorityClass) {
        return priorityClasses.remove(priorityClass) && anyPending();
    }

    private boolean anyPending() {
        return groups.values().stream().anyMatch(group -> !group.pending.isEmpty());
    }

    /**
     * A snapshot and the gangs to try: gangs with pending pods, and gangs of Jobs that wait for admission
     * before they create pods (with the pods they will create, see {@link JobPodTemplates}). A gang of a
     * PodGroup that does not exist (yet) is not tried: its pods are listed apart, to be told why they
     * wait. Only pods bound to nodes that still exist count toward a gang's quorum. Also every gang of a
     * PodGroup with pods bound, as running, and the queues, {@link QueueInfo#DEFAULT} among them even before
     * its Queue object exists, since gangs that name no queue are in it from the start.
     */
    synchronized CycleInput beginCycle() {
        ClusterSnapshot snapshot = cluster.snapshot();
        List<PendingGang> gangs = new ArrayList<>();
        List<QueueHold> refused = new ArrayList<>();
        List<MissingPodGroup> missing = new ArrayList<>();
        // Only gangs with pods pending or pods still to come: groups of finished and running jobs stay in the
        // cache for their counts, and a cycle must not cost more as they pile up.
        Set<GroupKey> keys = new LinkedHashSet<>();
        groups.forEach((key, group) -> {
            if (!group.pending.isEmpty()) {
                keys.add(key);
            }
        });
        keys.addAll(waitingForAdmission);
        for (GroupKey key : keys) {
            GroupPods group = groups.getOrDefault(key, GroupPods.NONE);
            List<PodInfo> expected = expectedPods(key);
            if (group.pending.isEmpty() && expected.isEmpty()) {
                continue;
            }
            List<PodInfo> pending = new ArrayList<>(group.pending.size());
            // Volume topology is read now, as claims are bound and classes change while pods wait.
            group.pending.values().forEach(pod -> pending.add(volumes.withVolumeTopology(pod.info(), pod.claims())));
            GangInfo gang = gangInfo(key, group, expected);
            if (gang == null) {
                missing.add(new MissingPodGroup(key, pending));
                continue;
            }
            BoundMembers.Count bound = group.bound.countOn(cluster::hasNode);
            // Members that already succeeded did their part of the gang: a straggler placed after them (its
            // bind failed, or it was replaced) completes the quorum with them rather than waiting for a
            // quorum of its own that can never come.
            Map<String, Integer> byTask = new HashMap<>(bound.byTask());
            group.succeeded.forEach((task, n) -> byTask.merge(task, n, Integer::sum));
            int members = bound.total() + group.succeeded.values().stream().mapToInt(Integer::intValue).sum();
            // Listed only where sub-groups count them, to spare every other gang the copy each cycle.
            PendingGang pendingGang = new PendingGang(gang, pending, members, byTask, null, expected,
                    gang.subGroups().isEmpty() ? List.of() : List.copyOf(group.members.values()));
            Optional<QueueRefusal> refusal = QueueAccess.refusal(gang.queue(), queueSpecs, key.namespace(),
                    snapshot.namespaceLabels().getOrDefault(key.namespace(), Map.of()));
            // A Closed queue's gang stays in its queue, pending there, and the planner holds it (QueueClosed).
            if (refusal.isPresent() && !refusal.get().keepsPlace()) {
                refused.add(new QueueHold(gang, pending, QueueHold.Reason.of(refusal.get().reason()), refusal.get().message()));
            } else {
                gangs.add(pendingGang);
            }
        }
        // The claims templates will make for pods still to be created count for admission like existing ones.
        List<DeviceClaim> toBeCreated = new ArrayList<>();
        for (PendingGang gang : gangs) {
            for (PodInfo pod : gang.expected()) {
                for (String claimKey : pod.deviceClaims()) {
                    DeviceClaim claim = DraObjects.pendingClaim(claimKey, devices);
                    if (claim != null) {
                        toBeCreated.add(claim);
                    }
                }
            }
        }
        Map<String, List<NamespaceQuota>> quotaLists = new HashMap<>();
        quotas.forEach((namespace, byName) -> quotaLists.put(namespace, List.copyOf(byName.values())));
        return new CycleInput(snapshot.withDevices(devices.ledger(toBeCreated))
                .withNamespaceQuotas(quotaLists, expectedPodQuotaFacts(gangs, quotaLists)), gangs,
                missing, runningGangs(), queueInfos(), refused);
    }

    /**
     * The gangs of PodGroups with pods bound to existing nodes and not leaving (being deleted, or evicted by a
     * cycle), each started when its group's {@code Scheduled} condition says, else at the earliest bind the
     * cache saw.
     */
    private Map<GroupKey, RunningGang> runningGangs() {
        Map<GroupKey, RunningGang> running = new HashMap<>();
        groups.forEach((key, group) -> {
            // Bound members first: the groups of finished jobs have none, and are most of the groups kept.
            if (group.bound.isEmpty()) {
                return;
            }
            GangRequirements spec = podGroups.get(key);
            if (spec == null || group.bound.countOn(cluster::hasNode).total() == 0) {
                return;
            }
            GangInfo gang = gangInfo(key, group, List.of());
            Instant startedAt = spec.scheduledAt() != null ? spec.scheduledAt()
                    : group.firstBoundAt != null ? group.firstBoundAt : spec.createdAt();
            running.put(key, new RunningGang(gang, startedAt, spec.evictions()));
        });
        return running;
    }

    private List<QueueInfo> queueInfos() {
        List<QueueInfo> list = new ArrayList<>(queues.values());
        if (!queues.containsKey(QueueInfo.DEFAULT)) {
            list.add(QueueInfo.of(QueueInfo.DEFAULT, 1));
        }
        return list;
    }

    /**
     * What quotas read of the pods that the waiting Jobs will create beyond their requests (limits, and what scopes
     * select), for the gangs of namespaces with quotas: only those need them.
     */
    private Map<String, QuotaFacts> expectedPodQuotaFacts(List<PendingGang> gangs,
                                                          Map<String, List<NamespaceQuota>> quotaLists) {
        Map<String, QuotaFacts> byPod = new HashMap<>();
        for (PendingGang gang : gangs) {
            GroupKey key = gang.gang().key();
            if (!gang.expected().isEmpty() && quotaLists.containsKey(key.namespace())) {
                ownerJob(podGroups.get(key)).addQuotaFacts(byPod, priorityClasses.globalDefaultName());
            }
        }
        return byPod;
    }

    /**
     * The pods a waiting Job will create for the gang once it is admitted. Its bound pods count toward the
     * quorum as usual, so a Pending job that lost a pod before it ran is admitted for the missing one.
     */
    private List<PodInfo> expectedPods(GroupKey key) {
        // Kept in step with the PodGroups and Jobs, so that the spec and the waiting Job are there: cheaper than
        // looking the Job up to ask, once per waiting gang every cycle.
        if (!waitingForAdmission.contains(key)) {
            return List.of();
        }
        GangRequirements spec = podGroups.get(key);
        // Every pod of the gang that exists, in whatever state, is not expected: a bound or finished one counted
        // as still to come would have room held for it twice and keep the gang in every cycle.
        return ownerJob(spec).expectedPods(key, spec.minTaskMember().keySet(),
                pods::containsKey, this::priorityOf, volumes)
                .stream().map(pod -> withDeviceRequests(pod, DraObjects.templateKeys(pod.deviceClaims()))).toList();
    }

    private GangInfo gangInfo(GroupKey key, GroupPods group, List<PodInfo> expected) {
        if (key.standalonePod()) {
            CachedPod pod = group.pending.firstEntry().getValue();
            return new GangInfo(key, 1, Map.of(), priorityOf(pod), pod.createdAt());
        }
        GangRequirements spec = podGroups.get(key);
        if (spec == null) {
            return null;
        }
        // The PodGroup's class if it names a known one, else its highest pod (pods of a group should agree).
        Integer groupPriority = priorityClasses.valueOf(spec.priorityClassName());
        int priority = groupPriority != null ? groupPriority
                : !group.pending.isEmpty() ? group.pending.values().stream().mapToInt(this::priorityOf).max().orElse(0)
                : !expected.isEmpty() ? expected.stream().mapToInt(PodInfo::priority).max().orElse(0)
                : group.boundPriorities.isEmpty() ? 0 : group.boundPriorities.lastKey();
        // A Job's gang queues from when the job was submitted: its PodGroup is created later, and the job
        // controller's workers create the PodGroups of jobs submitted together in any order.
        JobPodTemplates job = ownerJob(spec);
        // An elastic group's task minimums bind nothing (Volcano's rule); its tasks still name the expected pods.
        return new GangInfo(key, spec.minMember(),
                PodGroupDefaults.enforcedMinTaskMember(spec.minMember(), spec.minTaskMember()), priority,
                job != null ? job.createdAt() : spec.createdAt(), spec.scheduleTimeout(), spec.topology(), spec.queue(),
                spec.maxRuntime(), spec.minResources(), spec.subGroups());
    }

    /**
     * Assumes placed pods onto their nodes. Pods that stopped pending since the cycle's snapshot (deleted,
     * or bound by someone else) are skipped.
     *
     * @return the pods to bind
     */
    synchronized List<BindRequest> assume(List<PodPlacement> placements, DeviceLedger ledger) {
        List<BindRequest> requests = new ArrayList<>(placements.size());
        for (PodPlacement placement : placements) {
            String key = Cache.namespaceKeyFunc(placement.pod().namespace(), placement.pod().name());
            CachedPod before = pods.get(key);
            if (before != null && before.state() == PodState.PENDING) {
                CachedPod assumed = before.with(PodState.ASSUMED, placement.nodeName());
                replace(key, before, assumed);
                requests.add(new BindRequest(placement.pod().namespace(), placement.pod().name(), before.uid(),
                        placement.nodeName(), volumes.claimsToProvision(placement.pod().namespace(), before.claims()),
                        deviceClaimWrites(placement.pod(), ledger)));
            }
        }
        return requests;
    }

    /**
     * What to write to the pod's ResourceClaims: the allocation the cycle made for a claim the informer
     * shows unallocated, which counts as made until the informer shows it (or the write fails), and the
     * pod's reservation of every claim.
     */
    private List<BindRequest.DeviceClaimWrite> deviceClaimWrites(PodInfo pod, DeviceLedger ledger) {
        List<BindRequest.DeviceClaimWrite> writes = new ArrayList<>(pod.deviceClaims().size());
        for (String key : pod.deviceClaims()) {
            DeviceClaim known = devices.claim(key);
            DeviceAllocation allocation = ledger.allocation(key);
            if (known == null || allocation == null) {
                continue;
            }
            boolean allocate = known.allocation() == null;
            if (allocate) {
                devices.assume(key, allocation);
            }
            writes.add(new BindRequest.DeviceClaimWrite(known.name(), allocate ? allocation : null));
        }
        return writes;
    }

    /**
     * Assumes the pods a cycle evicts are leaving; pods no longer bound are skipped. Returns the uid of each
     * victim the cache holds (by {@code namespace/name}): the pod the decision was about, which alone may be
     * evicted.
     */
    synchronized Map<String, String> assumeEvicted(List<PodPlacement> victims) {
        Map<String, String> uids = new HashMap<>();
        for (PodPlacement victim : victims) {
            String key = Cache.namespaceKeyFunc(victim.pod().namespace(), victim.pod().name());
            CachedPod before = pods.get(key);
            if (before != null) {
                uids.put(key, before.uid());
            }
            if (before != null && before.occupiesNode() && !before.evictionAssumed()) {
                replace(key, before, before.withEvictionAssumed(true));
            }
        }
        return uids;
    }

    /** Undoes the assumption that the pod is leaving: its eviction was refused or failed. */
    synchronized void forgetEviction(String namespace, String name) {
        String key = Cache.namespaceKeyFunc(namespace, name);
        CachedPod before = pods.get(key);
        if (before != null && before.evictionAssumed()) {
            replace(key, before, before.withEvictionAssumed(false));
        }
    }

    /** Undoes the assumption of a pod whose bind failed, so it is pending again and its room is free. */
    synchronized void forget(BindRequest request) {
        for (BindRequest.DeviceClaimWrite write : request.deviceClaims()) {
            if (write.allocation() != null) {
                devices.forget(request.namespace() + "/" + write.name());
            }
        }
        CachedPod before = pods.get(request.podKey());
        if (before != null && before.state() == PodState.ASSUMED && before.uid().equals(request.uid())) {
            replace(request.podKey(), before, before.with(PodState.PENDING, null));
        }
    }

    /**
     * The pod's priority: {@code spec.priority} as admission resolved it, else its class's value (for API
     * servers that skip the Priority admission plugin), else the global default class's value, else 0.
     */
    private int priorityOf(CachedPod pod) {
        return priorityOf(pod.specPriority(), pod.priorityClassName());
    }

    private int priorityOf(Integer specPriority, String priorityClassName) {
        if (specPriority != null) {
            return specPriority;
        }
        Integer byClass = priorityClasses.valueOf(priorityClassName);
        return byClass != null ? byClass : priorityClasses.globalDefault();
    }

    private static CachedPod classify(Pod pod, CachedPod before) {
        if (KubeObjects.isTerminal(pod)) {
            return KubeObjects.isSucceeded(pod) ? CachedPod.of(pod, PodState.SUCCEEDED, null) : null;
        }
        String uid = pod.getMetadata().getUid();
        String nodeName = PodNode.of(pod).orElse(null);
        if (nodeName != null) {
            CachedPod bound = CachedPod.of(pod, PodState.BOUND, nodeName);
            // The informer has not seen the eviction take effect yet; the pod is still leaving.
            return before != null && before.evictionAssumed() && before.uid().equals(uid)
                    ? bound.withEvictionAssumed(true) : bound;
        }
        if (!KubeObjects.isOurs(pod) || KubeObjects.isDeleting(pod) || KubeObjects.isGated(pod)) {
            return null;
        }
        if (before != null && before.state() == PodState.ASSUMED && before.uid().equals(uid)) {
            // The informer has not seen the binding yet; the pod keeps its assumed room.
            return before;
        }
        return CachedPod.of(pod, PodState.PENDING, null);
    }

    private static boolean freedCapacity(CachedPod before, CachedPod after) {
        return before != null && before.occupiesNode()
                && (after == null || !after.occupiesNode() || !after.nodeName().equals(before.nodeName()));
    }

    private void replace(String key, CachedPod before, CachedPod after) {
        if (before != null) {
            retract(before);
        }
        if (after != null) {
            apply(after);
            pods.put(key, after);
        } else {
            pods.remove(key);
        }
    }

    private void apply(CachedPod pod) {
        GroupKey key = pod.info().group();
        if (pod.state() == PodState.SUCCEEDED) {
            if (!key.standalonePod()) {
                GroupPods group = groups.computeIfAbsent(key, k -> new GroupPods());
                group.succeeded.merge(pod.info().task(), 1, Integer::sum);
                group.members.put(pod.info().name(), new GangMember(pod.info(), null));
            }
            return;
        }
        if (pod.occupiesNode()) {
            cluster.occupy(pod.nodeName(), pod.info());
            // A bound pod of no PodGroup is a finished gang of one; nothing needs its count.
            // A pod that is leaving keeps its room until it is gone, but is no longer a member of its gang.
            if (!key.standalonePod() && !pod.leaving()) {
                GroupPods group = groups.computeIfAbsent(key, k -> new GroupPods());
                group.bound.add(pod.nodeName(), pod.info().task());
                group.members.put(pod.info().name(), new GangMember(pod.info(), pod.nodeName()));
                group.boundPriorities.merge(pod.info().priority(), 1, Integer::sum);
                if (group.firstBoundAt == null || pod.boundAt().isBefore(group.firstBoundAt)) {
                    group.firstBoundAt = pod.boundAt();
                }
            }
        } else {
            groups.computeIfAbsent(key, k -> new GroupPods()).pending.put(pod.info().name(), pod);
        }
    }

    private void retract(CachedPod pod) {
        GroupKey key = pod.info().group();
        if (pod.state() == PodState.SUCCEEDED) {
            if (!key.standalonePod()) {
                groups.get(key).succeeded.computeIfPresent(pod.info().task(), (task, n) -> n == 1 ? null : n - 1);
                groups.get(key).members.remove(pod.info().name());
                if (groups.get(key).isEmpty()) {
                    groups.remove(key);
                }
            }
            return;
        }
        if (pod.occupiesNode()) {
            cluster.release(pod.nodeName(), pod.info());
            if (key.standalonePod() || pod.leaving()) {
                return;
            }
            GroupPods group = groups.get(key);
            group.bound.remove(pod.nodeName(), pod.info().task());
            group.members.remove(pod.info().name());
            group.boundPriorities.computeIfPresent(pod.info().priority(), (priority, n) -> n == 1 ? null : n - 1);
            if (group.bound.isEmpty()) {
                group.firstBoundAt = null;
            }
        } else {
            groups.get(key).pending.remove(pod.info().name());
        }
        if (groups.get(key).isEmpty()) {
            groups.remove(key);
        }
    }

    /** Where a cached pod stands. */
    private enum PodState {
        /** Ours, not bound, waiting for a cycle to place it. */
        PENDING,
        /** Placed by a cycle and being bound; uses its node's room. */
        ASSUMED,
        /** Bound according to the API server, by any scheduler; uses its node's room. */
        BOUND,
        /** Finished successfully: uses no room, and still counts toward its gang's quorum. */
        SUCCEEDED
    }

    /** A pod that is pending for us or uses a node's room. */
    /** The templates of a pod's claims, and the devices counted for them in its requests. */
    private record DeviceShare(List<String> templates, Map<String, Long> counted) {
    }

    private record CachedPod(String uid, PodInfo info, PodState state, String nodeName, Instant createdAt,
                             Integer specPriority, String priorityClassName, Instant boundAt, boolean deleting,
                             boolean evictionAssumed, List<String> claims) {

        static CachedPod of(Pod pod, PodState state, String nodeName) {
            return new CachedPod(pod.getMetadata().getUid(), KubeObjects.podInfo(pod), state, nodeName,
                    KubeObjects.createdAt(pod), pod.getSpec().getPriority(), pod.getSpec().getPriorityClassName(),
                    KubeObjects.boundAt(pod), KubeObjects.isDeleting(pod), false,
                    KubeObjects.claimNames(pod));
        }

        /** Whether the pod is going: being deleted, or evicted by a cycle. */
        boolean leaving() {
            return deleting || evictionAssumed;
        }

        CachedPod withInfo(PodInfo other) {
            return new CachedPod(uid, other, state, nodeName, createdAt, specPriority, priorityClassName, boundAt,
                    deleting, evictionAssumed, claims);
        }

        CachedPod withEvictionAssumed(boolean assumed) {
            return new CachedPod(uid, info, state, nodeName, createdAt, specPriority, priorityClassName, boundAt,
                    deleting, assumed, claims);
        }

        boolean occupiesNode() {
            return state == PodState.ASSUMED || state == PodState.BOUND;
        }

        CachedPod with(PodState newState, String newNode) {
            return new CachedPod(uid, info, newState, newNode, createdAt, specPriority, priorityClassName, boundAt,
                    deleting, evictionAssumed, claims);
        }
    }

    /** The pods of one gang: pending ones by name, bound ones per node and task, succeeded ones per task. */
    private static final class GroupPods {
        /** A gang without pods; never modified. */
        static final GroupPods NONE = new GroupPods();

        private final TreeMap<String, CachedPod> pending = new TreeMap<>();
        private final BoundMembers bound = new BoundMembers();
        private final Map<String, Integer> succeeded = new HashMap<>();
        /** The bound pods that are not leaving and the succeeded ones, by name: what sub-groups count. */
        private final Map<String, GangMember> members = new HashMap<>();
        /** The bound pods' {@code spec.priority}, with how many have each: a running gang's priority. */
        private final TreeMap<Integer, Integer> boundPriorities = new TreeMap<>();
        /** The earliest bind seen since the group last had no pod bound; {@code null} with none bound. */
        private Instant firstBoundAt;

        boolean isEmpty() {
            return pending.isEmpty() && bound.isEmpty() && succeeded.isEmpty();
        }
    }
}
