package dev.muster.local.node;

import dev.muster.api.PodPhase;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateTerminatedBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.HostIP;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodIP;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The pod statuses a kubelet reports when a pod's containers start, when they exit and when they are stopped for
 * the pod's deletion, as pure functions.
 */
final class PodStatuses {
    private static final int SIGTERM_EXIT_CODE = 143;
    private static final int SIGKILL_EXIT_CODE = 137;

    private PodStatuses() {
    }

    /** Status of a pod whose containers all started at {@code now} and are ready. */
    static PodStatus running(Pod pod, String hostIp, String podIp, Instant now) {
        PodStatus status = copyOf(pod.getStatus());
        String time = timestamp(now);
        status.setPhase(PodPhase.Running.name());
        status.setStartTime(time);
        status.setHostIP(hostIp);
        status.setHostIPs(List.of(new HostIP(hostIp)));
        status.setPodIP(podIp);
        status.setPodIPs(List.of(new PodIP(podIp)));
        for (String type : List.of("PodScheduled", "Initialized", "ContainersReady", "Ready")) {
            setCondition(status, type, "True", null, time);
        }
        status.setContainerStatuses(pod.getSpec().getContainers().stream()
                .map(c -> new ContainerStatusBuilder(base(pod, c)).withReady(true).withStarted(true)
                        .withNewState().withNewRunning(time).endState().build())
                .toList());
        return status;
    }

    /**
     * Status of a pod whose containers the kubelet cannot create yet, as while it waits to prepare the pod's DRA
     * claims: still Pending, every container waiting with reason {@code ContainerCreating} and {@code message}.
     * The pod's status itself when it says so already, so that nothing is written twice.
     */
    static PodStatus containersCreating(Pod pod, String message) {
        PodStatus status = copyOf(pod.getStatus());
        List<ContainerStatus> waiting = pod.getSpec().getContainers().stream()
                .map(c -> new ContainerStatusBuilder(base(pod, c)).withContainerID(null).withReady(false).withStarted(false)
                        .withNewState().withNewWaiting(message, "ContainerCreating").endState().build())
                .toList();
        if (waiting.equals(status.getContainerStatuses())) {
            return pod.getStatus();
        }
        status.setContainerStatuses(waiting);
        return status;
    }

    /**
     * Status of a pod whose containers all exited at {@code now} with {@code exitCode}: phase Succeeded for 0,
     * Failed otherwise.
     */
    static PodStatus terminated(Pod pod, int exitCode, Instant now) {
        return terminal(pod, exitCode == 0 ? PodPhase.Succeeded : PodPhase.Failed, now,
                c -> terminatedState(pod, c, exitCode, exitCode == 0 ? "Completed" : "Error", now).build());
    }

    /**
     * Status of a pod whose containers the kubelet stopped at {@code now} because the pod is being deleted. A
     * running container exits on SIGTERM with 128 + 15 = 143; a container that never started is reported as the
     * kubelet reports one it cannot find, exit code 137. The kubelet gives a pod it stopped a terminal phase,
     * Failed, before it deletes it.
     */
    static PodStatus stopped(Pod pod, Instant now) {
        boolean started = PodPhase.of(pod) == PodPhase.Running;
        return terminal(pod, PodPhase.Failed, now, c -> started
                ? terminatedState(pod, c, SIGTERM_EXIT_CODE, "Error", now).build()
                : terminatedState(pod, c, SIGKILL_EXIT_CODE, "ContainerStatusUnknown", now)
                .withMessage("The container could not be located when the pod was terminated").build());
    }

    private static PodStatus terminal(Pod pod, PodPhase phase, Instant now, Function<Container, ContainerStateTerminated> state) {
        PodStatus status = copyOf(pod.getStatus());
        String time = timestamp(now);
        status.setPhase(phase.name());
        setCondition(status, "ContainersReady", "False", "PodCompleted", time);
        setCondition(status, "Ready", "False", "PodCompleted", time);
        status.setContainerStatuses(pod.getSpec().getContainers().stream()
                .map(c -> new ContainerStatusBuilder(base(pod, c)).withReady(false).withStarted(false)
                        .withNewState().withTerminated(state.apply(c)).endState().build())
                .toList());
        return status;
    }

    private static ContainerStateTerminatedBuilder terminatedState(Pod pod, Container container, int exitCode, String reason,
                                                                   Instant now) {
        return new ContainerStateTerminatedBuilder().withContainerID(containerId(pod, container)).withExitCode(exitCode)
                .withReason(reason).withStartedAt(startedAt(pod, container.getName())).withFinishedAt(timestamp(now));
    }


    private static ContainerStatus base(Pod pod, Container container) {
        return new ContainerStatusBuilder().withName(container.getName()).withImage(container.getImage())
                .withImageID("").withContainerID(containerId(pod, container)).withRestartCount(0).build();
    }

    private static String containerId(Pod pod, Container container) {
        return "muster-local://" + pod.getMetadata().getUid() + "/" + container.getName();
    }

    private static String startedAt(Pod pod, String container) {
        if (pod.getStatus() == null) {
            return null;
        }
        return pod.getStatus().getContainerStatuses().stream()
                .filter(s -> container.equals(s.getName()) && s.getState() != null && s.getState().getRunning() != null)
                .map(s -> s.getState().getRunning().getStartedAt())
                .findFirst().orElse(pod.getStatus().getStartTime());
    }

    /** Sets a condition, keeping its transition time if the status does not change. */
    private static void setCondition(PodStatus status, String type, String value, String reason, String time) {
        List<PodCondition> conditions = status.getConditions();
        PodCondition existing = conditions.stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
        if (existing != null && value.equals(existing.getStatus()) && Objects.equals(reason, existing.getReason())) {
            return;
        }
        conditions.remove(existing);
        conditions.add(new PodConditionBuilder().withType(type).withStatus(value).withReason(reason)
                .withLastTransitionTime(time).build());
    }

    private static PodStatus copyOf(PodStatus status) {
        return status == null ? new PodStatus() : Serialization.clone(status);
    }

    private static String timestamp(Instant instant) {
        return instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
