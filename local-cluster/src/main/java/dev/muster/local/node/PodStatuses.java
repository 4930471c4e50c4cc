package dev.muster.local.node;

import dev.muster.api.KubeTime;
import dev.muster.api.PodPhase;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerState;
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

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The pod statuses a kubelet reports when a pod's containers start, when they exit (for good or to be restarted in
 * place), when they start again and when they are stopped for the pod's deletion, as pure functions.
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
     * kubelet reports one it cannot find, exit code 137; one that had exited and waited for its restart keeps
     * its last exit. The kubelet gives a pod it stopped a terminal phase, Failed, before it deletes it.
     */
    static PodStatus stopped(Pod pod, Instant now) {
        boolean started = PodPhase.of(pod) == PodPhase.Running;
        return terminal(pod, PodPhase.Failed, now, c -> lastExit(pod, c.getName())
                .orElseGet(() -> started
                        ? terminatedState(pod, c, SIGTERM_EXIT_CODE, "Error", now).build()
                        : terminatedState(pod, c, SIGKILL_EXIT_CODE, "ContainerStatusUnknown", now)
                        .withMessage("The container could not be located when the pod was terminated").build()));
    }

    /**
     * Status of a pod whose containers all exited at {@code now} with {@code exitCode} and that the kubelet
     * restarts in place, as restart policy Always, or OnFailure after a failure, asks: the pod stays Running but
     * is not ready. Restarted without back-off, each container shows this exit as its state until it runs
     * again; held back for {@code backOff}, it waits in {@code CrashLoopBackOff} with this exit as its
     * {@code lastState}, as a kubelet reports it.
     */
    static PodStatus exitedToRestart(Pod pod, int exitCode, Duration backOff, Instant now) {
        PodStatus status = copyOf(pod.getStatus());
        String time = timestamp(now);
        String unready = "containers with unready status: ["
                + String.join(" ", pod.getSpec().getContainers().stream().map(Container::getName).toList()) + "]";
        setCondition(status, "ContainersReady", "False", "ContainersNotReady", unready, time);
        setCondition(status, "Ready", "False", "ContainersNotReady", unready, time);
        status.setContainerStatuses(pod.getSpec().getContainers().stream().map(c -> {
            ContainerStateTerminated exit = terminatedState(pod, c, exitCode, exitCode == 0 ? "Completed" : "Error", now).build();
            ContainerStatusBuilder container = new ContainerStatusBuilder(base(pod, c)).withReady(false).withStarted(false);
            if (backOff.isZero()) {
                return container.withNewState().withTerminated(exit).endState().build();
            }
            return container.withNewLastState().withTerminated(exit).endLastState()
                    .withNewState().withNewWaiting("back-off " + goDuration(backOff) + " restarting failed container="
                            + c.getName() + " pod=" + podName(pod), "CrashLoopBackOff").endState().build();
        }).toList());
        return status;
    }

    /**
     * Status of a pod whose exited containers the kubelet started again at {@code now}: each running and ready,
     * its {@code restartCount} one higher and its {@code lastState} the exit before.
     */
    static PodStatus restarted(Pod pod, Instant now) {
        PodStatus status = copyOf(pod.getStatus());
        String time = timestamp(now);
        setCondition(status, "ContainersReady", "True", null, time);
        setCondition(status, "Ready", "True", null, time);
        status.setContainerStatuses(pod.getSpec().getContainers().stream().map(c -> {
            ContainerStatus before = base(pod, c);
            ContainerStatusBuilder container = new ContainerStatusBuilder(before).withReady(true).withStarted(true)
                    .withRestartCount(before.getRestartCount() + 1).withNewState().withNewRunning(time).endState();
            lastExit(pod, c.getName()).ifPresent(exit -> container.withNewLastState().withTerminated(exit).endLastState());
            return container.build();
        }).toList());
        return status;
    }

    /** Whether every container of the pod has exited and waits to be restarted, as {@link #exitedToRestart} leaves it. */
    static boolean awaitsRestart(Pod pod) {
        List<ContainerStatus> statuses = pod.getStatus() == null ? List.of() : pod.getStatus().getContainerStatuses();
        return !statuses.isEmpty() && statuses.stream().allMatch(s -> s.getState() != null
                && (s.getState().getWaiting() != null || s.getState().getTerminated() != null));
    }

    /** When the pod's containers last started: at a restart, else with the pod. */
    static Optional<Instant> runningSince(Pod pod) {
        String since = pod.getStatus() == null ? null : pod.getStatus().getContainerStatuses().stream()
                .filter(s -> s.getState() != null && s.getState().getRunning() != null)
                .map(s -> s.getState().getRunning().getStartedAt())
                .filter(Objects::nonNull).findFirst().orElse(pod.getStatus().getStartTime());
        return Optional.ofNullable(since).map(KubeTime::parse);
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


    /** A container's identity, with the restarts and the last exit its current status records. */
    private static ContainerStatus base(Pod pod, Container container) {
        Optional<ContainerStatus> current = currentStatus(pod, container.getName());
        return new ContainerStatusBuilder().withName(container.getName()).withImage(container.getImage())
                .withImageID("").withContainerID(containerId(pod, container))
                .withRestartCount(current.map(ContainerStatus::getRestartCount).orElse(0))
                .withLastState(current.map(ContainerStatus::getLastState).orElse(null)).build();
    }

    private static Optional<ContainerStatus> currentStatus(Pod pod, String container) {
        return pod.getStatus() == null ? Optional.empty() : pod.getStatus().getContainerStatuses().stream()
                .filter(s -> container.equals(s.getName())).findFirst();
    }

    /** The exit of a container that is not running: its state if it has just exited, its lastState while it waits. */
    private static Optional<ContainerStateTerminated> lastExit(Pod pod, String container) {
        return currentStatus(pod, container).filter(s -> s.getState() != null && s.getState().getRunning() == null)
                .flatMap(s -> Optional.ofNullable(s.getState().getTerminated())
                        .or(() -> Optional.ofNullable(s.getLastState()).map(ContainerState::getTerminated)));
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

    private static void setCondition(PodStatus status, String type, String value, String reason, String time) {
        setCondition(status, type, value, reason, null, time);
    }

    /** Sets a condition, keeping its transition time if the status does not change. */
    private static void setCondition(PodStatus status, String type, String value, String reason, String message,
                                     String time) {
        List<PodCondition> conditions = status.getConditions();
        PodCondition existing = conditions.stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
        if (existing != null && value.equals(existing.getStatus()) && Objects.equals(reason, existing.getReason())
                && Objects.equals(message, existing.getMessage())) {
            return;
        }
        conditions.remove(existing);
        conditions.add(new PodConditionBuilder().withType(type).withStatus(value).withReason(reason).withMessage(message)
                .withLastTransitionTime(time).build());
    }

    private static PodStatus copyOf(PodStatus status) {
        return status == null ? new PodStatus() : Serialization.clone(status);
    }

    /** The pod as the kubelet names it in its messages: {@code NAME_NAMESPACE(UID)}. */
    static String podName(Pod pod) {
        return pod.getMetadata().getName() + "_" + pod.getMetadata().getNamespace() + "(" + pod.getMetadata().getUid() + ")";
    }

    /** A duration as Go prints one ({@code 10s}, {@code 1m20s}, {@code 5m0s}, {@code 100ms}), as kubelet messages show it. */
    static String goDuration(Duration duration) {
        if (duration.compareTo(Duration.ofSeconds(1)) < 0) {
            return duration.isZero() ? "0s" : decimal(BigDecimal.valueOf(duration.toNanos(), 6)) + "ms";
        }
        String seconds = decimal(BigDecimal.valueOf(duration.toSecondsPart() * 1_000_000_000L + duration.toNanosPart(), 9)) + "s";
        if (duration.toHours() > 0) {
            return duration.toHours() + "h" + duration.toMinutesPart() + "m" + seconds;
        }
        return duration.toMinutesPart() > 0 ? duration.toMinutesPart() + "m" + seconds : seconds;
    }

    private static String decimal(BigDecimal value) {
        return value.stripTrailingZeros().toPlainString();
    }

    private static String timestamp(Instant instant) {
        return instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
