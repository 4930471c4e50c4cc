package dev.muster.scheduler;

import dev.muster.api.KubeTime;
import dev.muster.api.NodeAllocatable;
import dev.muster.api.MusterLabels;
import dev.muster.api.PodGroupLabel;
import dev.muster.api.PodPhase;
import dev.muster.api.batch.v1alpha1.JobOwnership;
import dev.muster.api.batch.v1alpha1.GoDuration;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.api.scheduling.v1alpha1.QueueDefaults;
import dev.muster.api.scheduling.v1alpha1.QueueSpec;
import dev.muster.api.scheduling.v1alpha1.QueueTreeValidator;
import dev.muster.api.scheduling.v1alpha1.PodGroupDefaults;
import dev.muster.api.scheduling.v1alpha1.PodGroupSchedulingConstraints;
import dev.muster.api.scheduling.v1alpha1.PodGroupSpec;
import dev.muster.api.scheduling.v1alpha1.SubGroupPolicy;
import dev.muster.api.scheduling.v1alpha1.TopologyConstraint;
import dev.muster.scheduler.core.model.ClaimInfo;
import dev.muster.scheduler.core.model.GangTopology;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.HostPort;
import dev.muster.scheduler.core.model.InterPodTerms;
import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.model.NamespaceQuota;
import dev.muster.scheduler.core.model.QuotaFacts;
import dev.muster.scheduler.core.model.QuotaScope;
import dev.muster.scheduler.core.model.NodeSelectorRequirement;
import dev.muster.scheduler.core.model.NodeSelectorTerm;
import dev.muster.scheduler.core.model.SubGroupRule;
import dev.muster.scheduler.core.model.PersistentVolumeInfo;
import dev.muster.scheduler.core.model.PlacementConstraints;
import dev.muster.scheduler.core.model.PodAffinityTerm;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.PreferredTerm;
import dev.muster.scheduler.core.model.QueueInfo;
import dev.muster.scheduler.core.model.QueuePreemption;
import dev.muster.scheduler.core.model.SpreadConstraint;
import dev.muster.scheduler.core.model.StorageClassInfo;
import dev.muster.scheduler.core.model.Taint;
import dev.muster.scheduler.core.model.Toleration;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuotaSpec;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ScopedResourceSelectorRequirement;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm;
import io.fabric8.kubernetes.api.model.storage.StorageClass;

import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/** Reads what the scheduler needs from fabric8's Kubernetes objects into the core's records. */
final class KubeObjects {
    private KubeObjects() {
    }

    static NodeInfo nodeInfo(Node node) {
        var status = node.getStatus();
        var allocatable = NodeAllocatable.of(node);
        boolean ready = status != null && status.getConditions() != null && status.getConditions().stream()
                .anyMatch(KubeObjects::isReadyTrue);
        boolean cordoned = node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
        List<Taint> taints = node.getSpec() == null || node.getSpec().getTaints() == null ? List.of()
                : node.getSpec().getTaints().stream()
                .map(t -> new Taint(t.getKey(), t.getValue(), t.getEffect())).toList();
        return new NodeInfo(node.getMetadata().getName(), node.getMetadata().getLabels(),
                ResourceQuantities.toVector(allocatable), ready, cordoned, taints);
    }

    private static boolean isReadyTrue(NodeCondition condition) {
        return "Ready".equals(condition.getType()) && "True".equals(condition.getStatus());
    }

    static PodInfo podInfo(Pod pod) {
        var metadata = pod.getMetadata();
        var spec = pod.getSpec();
        Map<String, String> labels = metadata.getLabels() == null ? Map.of() : metadata.getLabels();
        return new PodInfo(metadata.getNamespace(), metadata.getName(), groupKey(pod),
                labels.get(MusterLabels.TASK_NAME), spec.getPriority() == null ? 0 : spec.getPriority(),
                PodRequests.of(spec), constraints(spec), labels, interPodTerms(spec, metadata.getNamespace(), labels),
                notEvaluated(spec), metadata.getCreationTimestamp() == null ? null : createdAt(pod),
                DraObjects.claimKeys(pod));
    }

    /**
     * The fields of the pod spec that bear on placement in kube-scheduler and that this scheduler does
     * not evaluate: {@code spec.workloadRef}, how a pod joined a gang in Kubernetes 1.35's Workload API
     * ({@code v1alpha1}, replaced in 1.36 by the {@code spec.schedulingGroup} that {@link WorkloadPodGroups} reads).
     */
    static SortedSet<String> notEvaluated(PodSpec spec) {
        SortedSet<String> fields = new TreeSet<>();
        if (spec.getAdditionalProperties() != null && spec.getAdditionalProperties().get("workloadRef") != null) {
            fields.add("spec.workloadRef");
        }
        return fields;
    }

    /**
     * The fields of a pod a Job will create that bear on placement and that admission, which places the pod
     * before it exists, does not evaluate: those of {@link #notEvaluated}, and the volume topology of
     * ephemeral volumes, whose claims are made with the pod (a named claim's is read, see
     * {@link #persistentClaimNames}).
     */
    static SortedSet<String> notEvaluatedInTemplate(PodSpec spec) {
        SortedSet<String> fields = notEvaluated(spec);
        if (spec.getVolumes() != null && spec.getVolumes().stream().anyMatch(volume -> volume.getEphemeral() != null)) {
            fields.add("spec.volumes[].ephemeral");
        }
        return fields;
    }

    /** The claims the pod's {@code persistentVolumeClaim} volumes name, in order: those that exist before it. */
    static List<String> persistentClaimNames(PodSpec spec) {
        if (spec.getVolumes() == null) {
            return List.of();
        }
        return spec.getVolumes().stream()
                .filter(volume -> volume.getPersistentVolumeClaim() != null
                        && volume.getPersistentVolumeClaim().getClaimName() != null)
                .map(volume -> volume.getPersistentVolumeClaim().getClaimName()).toList();
    }

    /**
     * The claims of the pod's volumes, in order: a {@code persistentVolumeClaim}'s claim, and for an
     * {@code ephemeral} volume the claim its controller creates, named {@code <pod>-<volume>}.
     */
    static List<String> claimNames(Pod pod) {
        List<io.fabric8.kubernetes.api.model.Volume> volumes = pod.getSpec().getVolumes();
        if (volumes == null || volumes.isEmpty()) {
            return List.of();
        }
        List<String> claims = new ArrayList<>(0);
        for (var volume : volumes) {
            if (volume.getPersistentVolumeClaim() != null && volume.getPersistentVolumeClaim().getClaimName() != null) {
                claims.add(volume.getPersistentVolumeClaim().getClaimName());
            } else if (volume.getEphemeral() != null) {
                claims.add(pod.getMetadata().getName() + "-" + volume.getName());
            }
        }
        return List.copyOf(claims);
    }

    static ClaimInfo claimInfo(PersistentVolumeClaim claim) {
        var spec = claim.getSpec();
        return new ClaimInfo(claim.getMetadata().getNamespace(), claim.getMetadata().getName(),
                spec == null ? null : spec.getVolumeName(), spec == null ? null : spec.getStorageClassName());
    }

    static PersistentVolumeInfo persistentVolumeInfo(PersistentVolume volume) {
        var affinity = volume.getSpec() == null ? null : volume.getSpec().getNodeAffinity();
        var required = affinity == null ? null : affinity.getRequired();
        return new PersistentVolumeInfo(volume.getMetadata().getName(),
                required == null || required.getNodeSelectorTerms() == null ? List.of()
                        : required.getNodeSelectorTerms().stream().map(KubeObjects::term).toList());
    }

    /** A class's allowedTopologies become node selector terms: each label expression an In of its values. */
    static StorageClassInfo storageClassInfo(StorageClass storageClass) {
        List<NodeSelectorTerm> allowed = new ArrayList<>();
        if (storageClass.getAllowedTopologies() != null) {
            for (var topology : storageClass.getAllowedTopologies()) {
                List<NodeSelectorRequirement> requirements = new ArrayList<>();
                if (topology.getMatchLabelExpressions() != null) {
                    topology.getMatchLabelExpressions().forEach(e -> requirements.add(new NodeSelectorRequirement(
                            e.getKey(), NodeSelectorRequirement.Operator.In,
                            e.getValues() == null ? List.of() : e.getValues())));
                }
                allowed.add(new NodeSelectorTerm(requirements, List.of()));
            }
        }
        return new StorageClassInfo(storageClass.getMetadata().getName(),
                "WaitForFirstConsumer".equals(storageClass.getVolumeBindingMode()), allowed);
    }

    /**
     * The pod affinity and anti-affinity terms, required and preferred, host ports and topology spread
     * constraints of a pod in the namespace with the labels.
     */
    static InterPodTerms interPodTerms(PodSpec spec, String namespace, Map<String, String> labels) {
        Affinity affinity = spec.getAffinity();
        List<PodAffinityTerm> required = List.of();
        List<PodAffinityTerm> anti = List.of();
        List<dev.muster.scheduler.core.model.WeightedPodAffinityTerm> preferred = List.of();
        List<dev.muster.scheduler.core.model.WeightedPodAffinityTerm> preferredAnti = List.of();
        if (affinity != null && affinity.getPodAffinity() != null) {
            required = terms(affinity.getPodAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(),
                    namespace, labels);
            preferred = weightedTerms(affinity.getPodAffinity().getPreferredDuringSchedulingIgnoredDuringExecution(),
                    namespace, labels);
        }
        if (affinity != null && affinity.getPodAntiAffinity() != null) {
            anti = terms(affinity.getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(),
                    namespace, labels);
            preferredAnti = weightedTerms(
                    affinity.getPodAntiAffinity().getPreferredDuringSchedulingIgnoredDuringExecution(), namespace, labels);
        }
        List<HostPort> ports = hostPorts(spec.getContainers());
        List<SpreadConstraint> spread = spreadConstraints(spec.getTopologySpreadConstraints(), "DoNotSchedule", labels);
        List<SpreadConstraint> softSpread = spreadConstraints(spec.getTopologySpreadConstraints(), "ScheduleAnyway",
                labels);
        if (required.isEmpty() && anti.isEmpty() && ports.isEmpty() && spread.isEmpty() && softSpread.isEmpty()
                && preferred.isEmpty() && preferredAnti.isEmpty()) {
            return InterPodTerms.NONE;
        }
        return new InterPodTerms(required, anti, ports, spread, softSpread, preferred, preferredAnti);
    }

    /**
     * The topology spread constraints with this {@code whenUnsatisfiable} (DoNotSchedule ones filter,
     * ScheduleAnyway ones score), with kube-scheduler's defaults: minDomains 1, nodeAffinityPolicy Honor,
     * nodeTaintsPolicy Ignore; matchLabelKeys merged in as In of the pod's own values.
     */
    private static List<SpreadConstraint> spreadConstraints(List<TopologySpreadConstraint> constraints,
                                                            String whenUnsatisfiable, Map<String, String> labels) {
        if (constraints == null) {
            return List.of();
        }
        List<SpreadConstraint> converted = new ArrayList<>(constraints.size());
        for (TopologySpreadConstraint constraint : constraints) {
            if (!whenUnsatisfiable.equals(constraint.getWhenUnsatisfiable()) || constraint.getTopologyKey() == null
                    || constraint.getMaxSkew() == null) {
                continue;
            }
            List<NodeSelectorRequirement> selector = labelSelector(constraint.getLabelSelector());
            if (selector != null) {
                selector = new ArrayList<>(selector);
                addOwnValues(selector, constraint.getMatchLabelKeys(), NodeSelectorRequirement.Operator.In, labels);
            }
            converted.add(new SpreadConstraint(constraint.getMaxSkew(), constraint.getTopologyKey(), selector,
                    constraint.getMinDomains() == null ? 1 : constraint.getMinDomains(),
                    !"Ignore".equals(constraint.getNodeAffinityPolicy()), "Honor".equals(constraint.getNodeTaintsPolicy())));
        }
        return converted;
    }

    /** Preferred terms with their weights, read as {@link #term} reads required ones. */
    private static List<dev.muster.scheduler.core.model.WeightedPodAffinityTerm> weightedTerms(
            List<WeightedPodAffinityTerm> terms, String namespace, Map<String, String> labels) {
        if (terms == null) {
            return List.of();
        }
        List<dev.muster.scheduler.core.model.WeightedPodAffinityTerm> converted = new ArrayList<>(terms.size());
        for (var weighted : terms) {
            var term = weighted.getPodAffinityTerm();
            // As for required terms, one the API server would reject is skipped so the rest count.
            if (term != null && term.getTopologyKey() != null && !term.getTopologyKey().isEmpty()
                    && weighted.getWeight() != null) {
                converted.add(new dev.muster.scheduler.core.model.WeightedPodAffinityTerm(weighted.getWeight(),
                        term(term, namespace, labels)));
            }
        }
        return converted;
    }

    private static List<PodAffinityTerm> terms(List<io.fabric8.kubernetes.api.model.PodAffinityTerm> terms,
                                               String namespace, Map<String, String> labels) {
        if (terms == null) {
            return List.of();
        }
        List<PodAffinityTerm> converted = new ArrayList<>(terms.size());
        for (var term : terms) {
            // The API server rejects a term without a topology key; skipping it keeps the rest honoured.
            if (term.getTopologyKey() != null && !term.getTopologyKey().isEmpty()) {
                converted.add(term(term, namespace, labels));
            }
        }
        return converted;
    }

    /**
     * One term as kube-scheduler reads it: matchLabelKeys and mismatchLabelKeys become In and NotIn of
     * the pod's own values; no namespaces and no namespaceSelector mean the pod's namespace, an empty
     * namespaceSelector means every namespace, a non-empty one adds the namespaces whose labels it selects
     * to those listed.
     */
    private static PodAffinityTerm term(io.fabric8.kubernetes.api.model.PodAffinityTerm term, String namespace,
                                        Map<String, String> labels) {
        List<NodeSelectorRequirement> selector = labelSelector(term.getLabelSelector());
        if (selector != null) {
            selector = new ArrayList<>(selector);
            addOwnValues(selector, term.getMatchLabelKeys(), NodeSelectorRequirement.Operator.In, labels);
            addOwnValues(selector, term.getMismatchLabelKeys(), NodeSelectorRequirement.Operator.NotIn, labels);
        }
        Set<String> namespaces = term.getNamespaces() == null ? new HashSet<>() : new HashSet<>(term.getNamespaces());
        LabelSelector namespaceSelector = term.getNamespaceSelector();
        boolean allNamespaces = namespaceSelector != null && isEmpty(namespaceSelector);
        if (namespaces.isEmpty() && namespaceSelector == null) {
            namespaces.add(namespace);
        }
        return new PodAffinityTerm(selector, namespaces, allNamespaces,
                allNamespaces ? null : labelSelector(namespaceSelector), term.getTopologyKey());
    }

    private static void addOwnValues(List<NodeSelectorRequirement> selector, List<String> keys,
                                     NodeSelectorRequirement.Operator operator, Map<String, String> labels) {
        if (keys == null) {
            return;
        }
        for (String key : keys) {
            String value = labels.get(key);
            // A key the pod lacks is ignored, as kube-apiserver does when it merges these keys.
            if (value != null) {
                selector.add(new NodeSelectorRequirement(key, operator, List.of(value)));
            }
        }
    }

    private static boolean isEmpty(LabelSelector selector) {
        return (selector.getMatchLabels() == null || selector.getMatchLabels().isEmpty())
                && (selector.getMatchExpressions() == null || selector.getMatchExpressions().isEmpty());
    }

    /** A label selector's requirements; {@code null} for no selector, which selects nothing. */
    private static List<NodeSelectorRequirement> labelSelector(LabelSelector selector) {
        if (selector == null) {
            return null;
        }
        List<NodeSelectorRequirement> requirements = new ArrayList<>();
        if (selector.getMatchLabels() != null) {
            selector.getMatchLabels().forEach((key, value) -> requirements.add(
                    new NodeSelectorRequirement(key, NodeSelectorRequirement.Operator.In, List.of(value))));
        }
        if (selector.getMatchExpressions() != null) {
            for (var expression : selector.getMatchExpressions()) {
                NodeSelectorRequirement.Operator operator = operator(expression.getOperator());
                // Label selectors know In, NotIn, Exists and DoesNotExist; anything else matches nothing.
                requirements.add(operator == null || operator == NodeSelectorRequirement.Operator.Gt
                        || operator == NodeSelectorRequirement.Operator.Lt
                        ? new NodeSelectorRequirement(expression.getKey(), NodeSelectorRequirement.Operator.In, List.of())
                        : new NodeSelectorRequirement(expression.getKey(), operator, expression.getValues()));
            }
        }
        return requirements;
    }

    /** The host ports of the containers, as kube-scheduler's NodePorts collects them; port 0 asks for none. */
    private static List<HostPort> hostPorts(List<Container> containers) {
        if (containers == null) {
            return List.of();
        }
        List<HostPort> ports = new ArrayList<>(0);
        for (Container container : containers) {
            if (container.getPorts() == null) {
                continue;
            }
            for (ContainerPort port : container.getPorts()) {
                if (port.getHostPort() != null && port.getHostPort() > 0) {
                    ports.add(new HostPort(port.getHostIP(), port.getProtocol(), port.getHostPort()));
                }
            }
        }
        return ports;
    }

    /** nodeSelector, required and preferred node affinity and tolerations. */
    static PlacementConstraints constraints(PodSpec spec) {
        List<NodeSelectorTerm> terms = List.of();
        List<PreferredTerm> preferred = List.of();
        Affinity affinity = spec.getAffinity();
        if (affinity != null && affinity.getNodeAffinity() != null
                && affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() != null) {
            var required = affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution();
            terms = required.getNodeSelectorTerms() == null ? List.of()
                    : required.getNodeSelectorTerms().stream().map(KubeObjects::term).toList();
        }
        if (affinity != null && affinity.getNodeAffinity() != null
                && affinity.getNodeAffinity().getPreferredDuringSchedulingIgnoredDuringExecution() != null) {
            preferred = affinity.getNodeAffinity().getPreferredDuringSchedulingIgnoredDuringExecution().stream()
                    .filter(p -> p.getPreference() != null && p.getWeight() != null && p.getWeight() > 0)
                    .map(p -> new PreferredTerm(p.getWeight(), term(p.getPreference()))).toList();
        }
        List<Toleration> tolerations = spec.getTolerations() == null ? List.of()
                : spec.getTolerations().stream()
                .map(t -> new Toleration(t.getKey(), t.getOperator(), t.getValue(), t.getEffect())).toList();
        if (terms.isEmpty() && tolerations.isEmpty() && preferred.isEmpty()) {
            return PlacementConstraints.ofNodeSelector(spec.getNodeSelector());
        }
        return new PlacementConstraints(spec.getNodeSelector(), terms, tolerations, preferred);
    }

    private static NodeSelectorTerm term(io.fabric8.kubernetes.api.model.NodeSelectorTerm term) {
        return new NodeSelectorTerm(requirements(term.getMatchExpressions()), requirements(term.getMatchFields()));
    }

    private static List<NodeSelectorRequirement> requirements(
            List<io.fabric8.kubernetes.api.model.NodeSelectorRequirement> requirements) {
        if (requirements == null) {
            return List.of();
        }
        List<NodeSelectorRequirement> converted = new ArrayList<>(requirements.size());
        for (var requirement : requirements) {
            NodeSelectorRequirement.Operator operator = operator(requirement.getOperator());
            // The API server validates operators; an unknown one matches nothing, like an In of no values.
            converted.add(operator == null
                    ? new NodeSelectorRequirement(requirement.getKey(), NodeSelectorRequirement.Operator.In, List.of())
                    : new NodeSelectorRequirement(requirement.getKey(), operator, requirement.getValues()));
        }
        return converted;
    }

    private static NodeSelectorRequirement.Operator operator(String name) {
        for (NodeSelectorRequirement.Operator operator : NodeSelectorRequirement.Operator.values()) {
            if (operator.name().equals(name)) {
                return operator;
            }
        }
        return null;
    }

    /**
     * The pod's PodGroup by label ({@link PodGroupLabel}), else the Kubernetes PodGroup its
     * {@code spec.schedulingGroup} names ({@link WorkloadPodGroups}), else the pod itself as a gang of one. Labels
     * first, as the PodGroup controller counts a pod by them.
     */
    static GroupKey groupKey(Pod pod) {
        var metadata = pod.getMetadata();
        return PodGroupLabel.groupName(pod)
                .map(group -> GroupKey.podGroup(metadata.getNamespace(), group))
                .or(() -> WorkloadPodGroups.podGroupName(pod)
                        .map(group -> GroupKey.workloadPodGroup(metadata.getNamespace(), group)))
                .orElseGet(() -> GroupKey.standalonePod(metadata.getNamespace(), metadata.getName()));
    }

    static GroupKey groupKey(PodGroup podGroup) {
        return GroupKey.podGroup(podGroup.getMetadata().getNamespace(), podGroup.getMetadata().getName());
    }

    /** What the PodGroup requires of its gang. */
    static GangRequirements gangRequirements(PodGroup podGroup) {
        PodGroupSpec spec = podGroup.getSpec();
        Map<String, Integer> minTaskMember = new HashMap<>();
        if (spec != null && spec.getMinTaskMember() != null) {
            // A task listed without a number (possible in YAML) sets no minimum.
            spec.getMinTaskMember().forEach((task, min) -> {
                if (task != null && min != null) {
                    minTaskMember.put(task, min);
                }
            });
        }
        return new GangRequirements(PodGroupDefaults.minMember(spec), minTaskMember,
                spec == null ? null : spec.getPriorityClassName(), createdAt(podGroup),
                spec == null || spec.getScheduleTimeoutSeconds() == null ? null
                        : Duration.ofSeconds(spec.getScheduleTimeoutSeconds()),
                JobOwnership.controllingJob(podGroup)
                        .map(job -> Cache.namespaceKeyFunc(podGroup.getMetadata().getNamespace(), job)).orElse(null),
                topology(spec),
                QueueDefaults.queueOf(spec == null ? null : spec.getQueue()),
                maxRuntime(spec), scheduledAt(podGroup), evictions(podGroup),
                ResourceQuantities.toVector(spec == null ? null : spec.getMinResources()), subGroups(spec));
    }

    /**
     * The PodGroup's {@code subGroupPolicy}: each policy with its size (1 unset), minimum (0 unset), pods
     * (all unset) and topology, which {@link #topology} reads as it reads the group's.
     */
    static List<SubGroupRule> subGroups(PodGroupSpec spec) {
        if (spec == null || spec.getSubGroupPolicy() == null) {
            return List.of();
        }
        List<SubGroupRule> rules = new ArrayList<>();
        for (SubGroupPolicy policy : spec.getSubGroupPolicy()) {
            if (policy == null) {
                continue;
            }
            List<NodeSelectorRequirement> selector = policy.getLabelSelector() == null ? List.of()
                    : labelSelector(policy.getLabelSelector());
            rules.add(new SubGroupRule(policy.getName() == null ? "" : policy.getName(),
                    policy.getSubGroupSize() == null ? 1 : Math.max(1, policy.getSubGroupSize()),
                    policy.getMinSubGroups() == null ? 0 : Math.max(0, policy.getMinSubGroups()), selector,
                    policy.getMatchLabelKeys() == null ? List.of()
                            : policy.getMatchLabelKeys().stream().filter(Objects::nonNull).toList(),
                    topology(policy.getSchedulingConstraints())));
        }
        return rules;
    }

    /**
     * How long the gang runs at most as backfill plans it: the PodGroup's {@code maxRuntime}, which its
     * workload enforces, or without one its {@code runningEstimate} (Volcano's), which nothing enforces, so a
     * reservation planned on it can be late; {@code null} when neither is set. The CRD's schema admits only Go
     * durations, so a value that does not parse was stored by something that bypassed it; it is treated as unset.
     */
    private static Duration maxRuntime(PodGroupSpec spec) {
        if (spec == null) {
            return null;
        }
        Duration bound = goDuration(spec.getMaxRuntime());
        return bound != null ? bound : goDuration(spec.getRunningEstimate());
    }

    private static Duration goDuration(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return GoDuration.parse(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** When the PodGroup's {@code Scheduled} condition became True, if it is. */
    private static Instant scheduledAt(PodGroup podGroup) {
        PodGroupStatus status = podGroup.getStatus();
        if (status == null || status.getConditions() == null) {
            return null;
        }
        return status.getConditions().stream()
                .filter(c -> c != null && PodGroupCondition.SCHEDULED.equals(c.getType()) && "True".equals(c.getStatus())
                        && c.getLastTransitionTime() != null)
                .map(c -> KubeTime.parse(c.getLastTransitionTime()))
                .findFirst().orElse(null);
    }

    /** The PodGroup's eviction count ({@link PodEvictor#EVICTIONS_ANNOTATION}); 0 when absent or not a count. */
    static int evictions(PodGroup podGroup) {
        Map<String, String> annotations = podGroup.getMetadata().getAnnotations();
        String value = annotations == null ? null : annotations.get(PodEvictor.EVICTIONS_ANNOTATION);
        if (value == null) {
            return 0;
        }
        try {
            return Math.max(Integer.parseInt(value.trim()), 0);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * What the scheduler judges gangs by in a ResourceQuota ({@link NamespaceQuota}): its hard limits on what pods
     * request and limit, their use as its status says, and its scopes; empty for a quota that limits nothing pods
     * request or that has a scope the scheduler does not know.
     */
    static Optional<NamespaceQuota> namespaceQuota(ResourceQuota quota) {
        ResourceQuotaSpec spec = quota.getSpec();
        if (spec == null || spec.getHard() == null) {
            return Optional.empty();
        }
        Map<String, Long> hard = podRequestAmounts(spec.getHard());
        List<QuotaScope> scopes = new ArrayList<>();
        if (spec.getScopes() != null) {
            spec.getScopes().forEach(scope -> scopes.add(new QuotaScope(scope, "Exists", List.of())));
        }
        if (spec.getScopeSelector() != null && spec.getScopeSelector().getMatchExpressions() != null) {
            for (ScopedResourceSelectorRequirement expression : spec.getScopeSelector().getMatchExpressions()) {
                scopes.add(new QuotaScope(expression.getScopeName(), expression.getOperator(), expression.getValues()));
            }
        }
        // A scope the scheduler does not know selects pods by what it cannot tell: the API server judges that quota.
        if (hard.isEmpty() || scopes.stream().anyMatch(scope -> !QuotaScope.NAMES.contains(scope.scopeName()))) {
            return Optional.empty();
        }
        Map<String, Long> used = quota.getStatus() == null || quota.getStatus().getUsed() == null ? Map.of()
                : podRequestAmounts(quota.getStatus().getUsed());
        return Optional.of(new NamespaceQuota(quota.getMetadata().getNamespace(), quota.getMetadata().getName(), hard, used,
                scopes));
    }

    /**
     * What a ResourceQuota reads of a pod to be created beyond its requests ({@link QuotaFacts}): its limits
     * ({@link PodRequests#quotaLimits}), and its QoS class and cross-namespace affinity as kube's pod evaluator reads
     * them.
     */
    static QuotaFacts quotaFacts(PodSpec spec) {
        boolean bestEffort = true;
        List<Container> containers = new ArrayList<>(spec.getContainers() == null ? List.of() : spec.getContainers());
        if (spec.getInitContainers() != null) {
            containers.addAll(spec.getInitContainers());
        }
        for (Container container : containers) {
            ResourceRequirements resources = container.getResources();
            if (resources != null && (sets(resources.getRequests()) || sets(resources.getLimits()))) {
                bestEffort = false;
            }
        }
        return new QuotaFacts(PodRequests.quotaLimits(spec), spec.getPriorityClassName(), spec.getActiveDeadlineSeconds() != null
                && spec.getActiveDeadlineSeconds() >= 0, bestEffort, crossNamespaceAffinity(spec.getAffinity()));
    }

    private static boolean sets(Map<String, Quantity> amounts) {
        if (amounts == null) {
            return false;
        }
        for (String resource : List.of(ResourceVector.CPU, ResourceVector.MEMORY)) {
            Quantity amount = amounts.get(resource);
            if (amount != null && amount.getNumericalAmount().signum() > 0) {
                return true;
            }
        }
        return false;
    }

    private static boolean crossNamespaceAffinity(Affinity affinity) {
        if (affinity == null) {
            return false;
        }
        List<io.fabric8.kubernetes.api.model.PodAffinityTerm> terms = new ArrayList<>();
        if (affinity.getPodAffinity() != null) {
            addTerms(terms, affinity.getPodAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(),
                    affinity.getPodAffinity().getPreferredDuringSchedulingIgnoredDuringExecution());
        }
        if (affinity.getPodAntiAffinity() != null) {
            addTerms(terms, affinity.getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(),
                    affinity.getPodAntiAffinity().getPreferredDuringSchedulingIgnoredDuringExecution());
        }
        return terms.stream().anyMatch(term -> term != null && (term.getNamespaces() != null
                && !term.getNamespaces().isEmpty() || term.getNamespaceSelector() != null));
    }

    private static void addTerms(List<io.fabric8.kubernetes.api.model.PodAffinityTerm> into,
                                 List<io.fabric8.kubernetes.api.model.PodAffinityTerm> required,
                                 List<WeightedPodAffinityTerm> preferred) {
        if (required != null) {
            into.addAll(required);
        }
        if (preferred != null) {
            preferred.forEach(weighted -> into.add(weighted.getPodAffinityTerm()));
        }
    }

    /**
     * A quota's amounts by the resource of a pod's requests they count: {@code requests.cpu} and {@code cpu} as
     * {@code cpu}, {@code requests.nvidia.com/gpu} as {@code nvidia.com/gpu}, the limits {@code limits.cpu},
     * {@code limits.memory} and {@code limits.ephemeral-storage} by those names, and the pod counts {@code pods} and
     * {@code count/pods}; other names (storage, other object counts) are left out.
     */
    private static Map<String, Long> podRequestAmounts(Map<String, Quantity> amounts) {
        String requestsPrefix = "requests.";
        Map<String, Long> byResource = new HashMap<>();
        amounts.forEach((name, quantity) -> {
            String limited = NamespaceQuota.limitedResource(name);
            if (limited != null && NamespaceQuota.LIMITED_RESOURCES.contains(limited)) {
                byResource.put(name, ResourceQuantities.amount(limited, quantity));
                return;
            }
            String resource = name.equals(NamespaceQuota.OBJECT_COUNT_PODS) ? name
                    : name.startsWith(requestsPrefix) ? name.substring(requestsPrefix.length())
                    : name.equals(ResourceVector.CPU) || name.equals(ResourceVector.MEMORY) || name.equals(ResourceVector.PODS)
                    || name.equals("ephemeral-storage") ? name : null;
            if (resource != null && !resource.equals("storage")) {
                byResource.put(resource, ResourceQuantities.amount(resource, quantity));
            }
        });
        return byResource;
    }

    /**
     * A Queue as the placement core sees it, with {@link QueueDefaults} for what it leaves unset. A
     * {@code reclaimDelay} that is not a duration counts as the default; {@link QueueTreeValidator} reports it
     * in the queue's {@code Valid} condition.
     */
    static QueueInfo queueInfo(Queue queue) {
        QueueSpec spec = queue.getSpec();
        Duration reclaimDelay;
        try {
            reclaimDelay = QueueDefaults.reclaimDelay(spec);
        } catch (IllegalArgumentException e) {
            reclaimDelay = QueueDefaults.RECLAIM_DELAY;
        }
        Map<String, Quantity> limit = QueueDefaults.limit(spec);
        return new QueueInfo(queue.getMetadata().getName(), QueueDefaults.parent(spec),
                Math.max(QueueDefaults.weight(spec), 1), ResourceQuantities.toVector(QueueDefaults.guarantee(spec)),
                limit.isEmpty() ? null : ResourceQuantities.toVector(limit), limit.keySet(),
                new QueuePreemption(QueueDefaults.preemptsWithinQueue(spec) ? QueuePreemption.WithinQueue.LOWER_PRIORITY
                        : QueuePreemption.WithinQueue.NEVER, QueueDefaults.reclaims(spec), reclaimDelay),
                QueueDefaults.open(spec));
    }

    /**
     * The PodGroup's {@code schedulingConstraints} topology: its levels in order, required unless the
     * policy says Preferred; {@code null} when it lists no level, and the default locality applies.
     */
    static GangTopology topology(PodGroupSpec spec) {
        return topology(spec == null ? null : spec.getSchedulingConstraints());
    }

    /** {@code schedulingConstraints} as a gang topology (a group's or a sub-group's); {@code null} for no level. */
    private static GangTopology topology(PodGroupSchedulingConstraints constraints) {
        if (constraints == null || constraints.getTopology() == null) {
            return null;
        }
        List<String> levels = constraints.getTopology().stream()
                .map(TopologyConstraint::getKey)
                .filter(key -> key != null && !key.isBlank())
                .toList();
        return levels.isEmpty() ? null : new GangTopology(levels,
                !PodGroupSchedulingConstraints.PREFERRED.equals(constraints.getTopologyPolicy()));
    }

    /** Whether the pod finished; finished pods use no capacity (succeeded ones still count toward a quorum). */
    static boolean isTerminal(Pod pod) {
        return PodPhase.isFinished(pod);
    }

    static boolean isSucceeded(Pod pod) {
        return PodPhase.of(pod) == PodPhase.Succeeded;
    }

    static boolean isOurs(Pod pod) {
        return MusterLabels.SCHEDULER_NAME.equals(pod.getSpec().getSchedulerName());
    }

    /**
     * Whether the pod still has {@code spec.schedulingGates}: as kube-scheduler, Muster never binds it then;
     * its gang waits for it as for a pod not yet created.
     */
    static boolean isGated(Pod pod) {
        return pod.getSpec().getSchedulingGates() != null && !pod.getSpec().getSchedulingGates().isEmpty();
    }

    static boolean isDeleting(HasMetadata object) {
        return object.getMetadata().getDeletionTimestamp() != null;
    }

    /**
     * When the pod was bound: its {@code PodScheduled=True} condition's transition time, else its creation
     * time (a pod bound by its creator, with {@code spec.nodeName} set, has no such condition).
     */
    static Instant boundAt(Pod pod) {
        if (pod.getStatus() != null && pod.getStatus().getConditions() != null) {
            for (var condition : pod.getStatus().getConditions()) {
                if (condition != null && PodConditionWriter.POD_SCHEDULED.equals(condition.getType()) && "True".equals(condition.getStatus())
                        && condition.getLastTransitionTime() != null) {
                    return KubeTime.parse(condition.getLastTransitionTime());
                }
            }
        }
        return createdAt(pod);
    }

    /** Creation time; objects from emulators may lack it, and then sort as oldest. */
    static Instant createdAt(HasMetadata object) {
        String timestamp = object.getMetadata().getCreationTimestamp();
        return timestamp == null ? Instant.EPOCH : KubeTime.parse(timestamp);
    }
}
