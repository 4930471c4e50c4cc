package dev.muster.scheduler;

import dev.muster.api.MusterLabels;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.scheduler.core.GroupKey;
import dev.muster.scheduler.core.NodeInfo;
import dev.muster.scheduler.core.PodInfo;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Map;

/** Reads what the scheduler needs from fabric8's Kubernetes objects into the core's records. */
final class KubeObjects {
    private KubeObjects() {
    }

    static NodeInfo nodeInfo(Node node) {
        var status = node.getStatus();
        var allocatable = status == null ? null
                : status.getAllocatable() != null ? status.getAllocatable() : status.getCapacity();
        boolean ready = status != null && status.getConditions() != null && status.getConditions().stream()
                .anyMatch(KubeObjects::isReadyTrue);
        boolean cordoned = node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
        return new NodeInfo(node.getMetadata().getName(), node.getMetadata().getLabels(),
                ResourceQuantities.toVector(allocatable), ready, cordoned);
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
                PodRequests.of(spec), spec.getNodeSelector());
    }

    /** The pod's PodGroup by label, or the pod itself as a gang of one. */
    static GroupKey groupKey(Pod pod) {
        var metadata = pod.getMetadata();
        String group = metadata.getLabels() == null ? null : metadata.getLabels().get(MusterLabels.POD_GROUP);
        return group == null || group.isEmpty()
                ? GroupKey.standalonePod(metadata.getNamespace(), metadata.getName())
                : GroupKey.podGroup(metadata.getNamespace(), group);
    }

    static GroupKey groupKey(PodGroup podGroup) {
        return GroupKey.podGroup(podGroup.getMetadata().getNamespace(), podGroup.getMetadata().getName());
    }

    /** Whether the pod finished; finished pods use no capacity and do not count toward a quorum. */
    static boolean isTerminal(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    static boolean isOurs(Pod pod) {
        return MusterLabels.SCHEDULER_NAME.equals(pod.getSpec().getSchedulerName());
    }

    static String nodeName(Pod pod) {
        String nodeName = pod.getSpec().getNodeName();
        return nodeName == null || nodeName.isEmpty() ? null : nodeName;
    }

    static boolean isDeleting(HasMetadata object) {
        return object.getMetadata().getDeletionTimestamp() != null;
    }

    /** Creation time; objects from emulators may lack it, and then sort as oldest. */
    static Instant createdAt(HasMetadata object) {
        String timestamp = object.getMetadata().getCreationTimestamp();
        return timestamp == null ? Instant.EPOCH : OffsetDateTime.parse(timestamp).toInstant();
    }

    /** The informer store's key, {@code namespace/name}. */
    static String key(String namespace, String name) {
        return namespace + "/" + name;
    }
}
