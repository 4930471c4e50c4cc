package dev.muster.scheduler;

import dev.muster.api.KubeTime;
import dev.muster.scheduler.core.model.GangTopology;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.QueueInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Kubernetes' own PodGroups, those of the Workload API ({@code scheduling.k8s.io}: a standalone PodGroup from
 * Kubernetes 1.36, alpha behind the {@code GenericWorkload} gate), which a pod names in its
 * {@code spec.schedulingGroup.podGroupName}; Muster gang-schedules such pods as kube-scheduler would, so a workload
 * written for the built-in gang scheduling runs unchanged with {@code schedulerName: muster}. Read here, in one
 * place, as maps: fabric8's model (Kubernetes 1.34) has neither the kind nor the pod's field.
 *
 * <p>What is read: {@code spec.schedulingPolicy.gang.minCount} as the gang's quorum ({@code basic}: a quorum of one,
 * each pod placed on its own, as kube-scheduler's basic policy), and {@code spec.schedulingConstraints.topology[0].key}
 * as a required gang topology (all the group's pods in one domain of that label). The group is in Muster's default
 * queue and its priority is its pods'.
 */
final class WorkloadPodGroups {
    /** The API group. */
    static final String GROUP = "scheduling.k8s.io";
    /** The resource. */
    static final String PLURAL = "podgroups";
    /** The kind. */
    static final String KIND = "PodGroup";
    /**
     * The versions that serve standalone PodGroups, newest first: {@code v1alpha2} (1.36), then its successors, whose
     * PodGroup keeps the fields read here.
     */
    static final List<String> VERSIONS = List.of(GROUP + "/v1beta1", GROUP + "/v1alpha3", GROUP + "/v1alpha2");
    /** The condition {@code v1alpha2} writes once a group's quorum is placed, or why it is not. */
    static final String SCHEDULED_V1ALPHA2 = "PodGroupScheduled";
    /** The same condition after 1.36, renamed to say that it stays True once it is (kubernetes/kubernetes#139743). */
    static final String INITIALLY_SCHEDULED = "PodGroupInitiallyScheduled";

    private WorkloadPodGroups() {
    }

    /** The condition type the scheduler writes on PodGroups of that API version. */
    static String scheduledCondition(String apiVersion) {
        return (GROUP + "/v1alpha2").equals(apiVersion) ? SCHEDULED_V1ALPHA2 : INITIALLY_SCHEDULED;
    }

    /** The PodGroup the pod names in {@code spec.schedulingGroup.podGroupName}, if it names one. */
    static Optional<String> podGroupName(Pod pod) {
        if (pod.getSpec() == null || pod.getSpec().getAdditionalProperties() == null) {
            return Optional.empty();
        }
        Object name = DraObjects.map(pod.getSpec().getAdditionalProperties().get("schedulingGroup")).get("podGroupName");
        return name instanceof String text && !text.isBlank() ? Optional.of(text) : Optional.empty();
    }

    static GroupKey key(GenericKubernetesResource podGroup) {
        return GroupKey.workloadPodGroup(podGroup.getMetadata().getNamespace(), podGroup.getMetadata().getName());
    }

    /**
     * What the PodGroup requires of its gang; a policy that does not read (neither {@code gang} with a positive
     * {@code minCount} nor {@code basic}, which the API server refuses) is read as empty, and its pods wait as for
     * a missing group rather than be placed by a minimum nobody set.
     */
    static Optional<GangRequirements> requirements(GenericKubernetesResource podGroup) {
        Map<String, Object> spec = DraObjects.map(podGroup.getAdditionalProperties().get("spec"));
        Map<String, Object> policy = DraObjects.map(spec.get("schedulingPolicy"));
        int minMember;
        if (policy.get("gang") != null) {
            Object minCount = DraObjects.map(policy.get("gang")).get("minCount");
            if (!(minCount instanceof Number number) || number.intValue() < 1) {
                return Optional.empty();
            }
            minMember = number.intValue();
        } else if (policy.get("basic") != null) {
            minMember = 1;
        } else {
            return Optional.empty();
        }
        return Optional.of(new GangRequirements(minMember, Map.of(), null, KubeObjects.createdAt(podGroup), null,
                null, topology(spec), QueueInfo.DEFAULT, null, scheduledAt(podGroup), 0, ResourceVector.ZERO,
                List.of()));
    }

    private static GangTopology topology(Map<String, Object> spec) {
        for (Object constraint : DraObjects.list(DraObjects.map(spec.get("schedulingConstraints")).get("topology"))) {
            Object key = DraObjects.map(constraint).get("key");
            if (key instanceof String text && !text.isBlank()) {
                return new GangTopology(List.of(text), true);
            }
        }
        return null;
    }

    /** When the group's scheduled condition became True, of either name. */
    private static Instant scheduledAt(GenericKubernetesResource podGroup) {
        Map<String, Object> status = DraObjects.map(podGroup.getAdditionalProperties().get("status"));
        for (Object condition : DraObjects.list(status.get("conditions"))) {
            Map<String, Object> fields = DraObjects.map(condition);
            Object type = fields.get("type");
            if ((SCHEDULED_V1ALPHA2.equals(type) || INITIALLY_SCHEDULED.equals(type)) && "True".equals(fields.get("status"))
                    && fields.get("lastTransitionTime") instanceof String time) {
                return KubeTime.parse(time);
            }
        }
        return null;
    }
}
