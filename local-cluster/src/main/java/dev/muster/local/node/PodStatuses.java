package dev.muster.local.node;

import dev.muster.api.KubeTime;
import dev.muster.api.PodPhase;
import dev.muster.api.Sidecars;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The pod statuses a kubelet reports while a pod's init containers run, when its containers start, when they exit
 * (for good or to be restarted in place), when they start again and when they are stopped for the pod's deletion,
 * as pure functions.
 */
final class PodStatuses {
    private static final int SIGTERM_EXIT_CODE = 143;
    private static final int SIGKILL_EXIT_CODE = 137;

    private PodStatuses() {
    }

    /**
     * Status of a pod whose containers all started at {@code now} and are ready, its init containers through: each
     * one completed (at {@code now} unless it had already), each sidecar running. The pod's start time and
     * addresses are those it got when its init containers started, if it did.
     */
    static PodStatus running(Pod pod, String hostIp, String podIp, Instant now) {
        PodStatus status = copyOf(pod.getStatus());
        String time = timestamp(now);
        status.setPhase(PodPhase.Running.name());
        placed(status, hostIp, podIp, time);
        for (String type : List.of("PodScheduled", "Initialized", "ContainersReady", "Ready")) {
            setCondition(status, type, "True", null, time);
        }
        status.setInitContainerStatuses(initStatuses(pod, pod.getSpec().getInitContainers().size(), now));
        status.setContainerStatuses(pod.getSpec().getContainers().stream()
                .map(c -> new ContainerStatusBuilder(base(pod, c)).withReady(true).withStarted(true)
                        .withNewState().withNewRunning(time).endState().build())
                .toList());
        return status;
    }

    /**
     * Status of a pod whose init container {@code index} (not a sidecar) runs from {@code now}, those before it
     * through (each completed, each sidecar running), those after it and the containers waiting with reason
     * {@code PodInitializing}: the pod is Pending, not {@code Initialized}, and has its start time and addresses.
     */
    static PodStatus initRunning(Pod pod, String hostIp, String podIp, int index, Instant now) {
        PodStatus status = copyOf(pod.getStatus());
        String time = timestamp(now);
        placed(status, hostIp, podIp, time);
        Container init = pod.getSpec().getInitContainers().get(index);
        List<ContainerStatus> inits = initStatuses(pod, index, now);
        inits.set(index, new ContainerStatusBuilder(base(pod, init)).withReady(false).withStarted(true)
                .withNewState().withNewRunning(time).endState().build());
        initializing(pod, status, inits, time);
        return status;
    }

    /**
     * Status of a pod whose init container {@code index} started again at {@code now} after it exited: running,
     * its {@code restartCount} one higher and its {@code lastState} the exit before.
     */
    static PodStatus initRestarted(Pod pod, int index, Instant now) {
        PodStatus status = copyOf(pod.getStatus());
        Container init = pod.getSpec().getInitContainers().get(index);
        ContainerStatus before = base(pod, init);
        ContainerStatusBuilder restarted = new ContainerStatusBuilder(before).withReady(false).withStarted(true)
                .withRestartCount(before.getRestartCount() + 1).withNewState().withNewRunning(timestamp(now)).endState();
        lastExit(pod, init.getName()).ifPresent(exit -> restarted.withNewLastState().withTerminated(exit).endLastState());
        status.getInitContainerStatuses().set(index, restarted.build());
        return status;
    }

    /**
     * Status of a pod whose init container {@code index} exited at {@code now} with the non-zero {@code exitCode}
     * and that the kubelet restarts, as restart policy OnFailure or Always asks: the pod stays Pending, and the
     * container shows the exit, or waits in {@code CrashLoopBackOff} for {@code backOff}, as a container does in
     * {@link #exitedToRestart}.
     */
    static PodStatus initExitedToRestart(Pod pod, int index, int exitCode, Duration backOff, Instant now) {
        PodStatus status = copyOf(pod.getStatus());
        Container init = pod.getSpec().getInitContainers().get(index);
        status.getInitContainerStatuses().set(index, exitedToRestart(pod, init, exitCode, backOff, now));
        return status;
    }

    /**
     * Status of a pod whose init container {@code index} exited at {@code now} with the non-zero {@code exitCode}
     * under restart policy Never: the pod has Failed, its sidecars are stopped and its containers never started.
     */
    static PodStatus initFailed(Pod pod, int index, int exitCode, Instant now) {
        PodStatus status = copyOf(pod.getStatus());
        status.setPhase(PodPhase.Failed.name());
        Container init = pod.getSpec().getInitContainers().get(index);
        status.getInitContainerStatuses().set(index, new ContainerStatusBuilder(base(pod, init)).withReady(false)
                .withStarted(false).withNewState().withTerminated(terminatedState(pod, init, exitCode, "Error", now).build())
                .endState().build());
        status.setInitContainerStatuses(sidecarsStopped(pod, status.getInitContainerStatuses(), now));
        return status;
    }

    /** Whether the pod's init container {@code index} is running. */
    static boolean initRuns(Pod pod, int index) {
        return initStatus(pod, index).filter(s -> s.getState() != null && s.getState().getRunning() != null).isPresent();
    }

    /** Whether the pod's init container {@code index} has exited and waits to be restarted. */
    static boolean initAwaitsRestart(Pod pod, int index) {
        return initStatus(pod, index).filter(s -> s.getState() != null
                && (s.getState().getWaiting() != null && "CrashLoopBackOff".equals(s.getState().getWaiting().getReason())
                || s.getState().getTerminated() != null)).isPresent();
    }

    /**
     * The index of the first init container from {@code from} on that must run to completion before the containers
     * start, that is not a sidecar and has not completed; -1 if there is none.
     */
    static int nextInit(Pod pod, int from) {
        List<Container> inits = pod.getSpec().getInitContainers();
        for (int i = from; i < inits.size(); i++) {
            if (!Sidecars.isSidecar(inits.get(i)) && !completed(currentStatus(pod, inits.get(i).getName()))) {
                return i;
            }
        }
        return -1;
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
     * its last exit. Init containers are reported alike, each by its own state (a completed one as it is, a
     * running one or a sidecar with 143). The kubelet gives a pod it stopped a terminal phase, Failed, before it
     * deletes it.
     */
    static PodStatus stopped(Pod pod, Instant now) {
        boolean started = PodPhase.of(pod) == PodPhase.Running;
        PodStatus status = terminal(pod, PodPhase.Failed, now, c -> lastExit(pod, c.getName())
                .orElseGet(() -> started ? sigterm(pod, c, now) : notFound(pod, c, now)));
        // Init containers the same way, save those that completed; started is each one's own.
        status.setInitContainerStatuses(pod.getSpec().getInitContainers().stream().map(c -> {
            Optional<ContainerStatus> current = currentStatus(pod, c.getName());
            if (completed(current)) {
                return current.get();
            }
            boolean runs = current.filter(s -> s.getState() != null && s.getState().getRunning() != null).isPresent();
            ContainerStateTerminated exit = lastExit(pod, c.getName())
                    .orElseGet(() -> runs ? sigterm(pod, c, now) : notFound(pod, c, now));
            return new ContainerStatusBuilder(base(pod, c)).withReady(false).withStarted(false)
                    .withNewState().withTerminated(exit).endState().build();
        }).toList());
        return status;
    }

    private static ContainerStateTerminated sigterm(Pod pod, Container container, Instant now) {
        return terminatedState(pod, container, SIGTERM_EXIT_CODE, "Error", now).build();
    }

    private static ContainerStateTerminated notFound(Pod pod, Container container, Instant now) {
        return terminatedState(pod, container, SIGKILL_EXIT_CODE, "ContainerStatusUnknown", now)
                .withMessage("The container could not be located when the pod was terminated").build();
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
        status.setContainerStatuses(pod.getSpec().getContainers().stream()
                .map(c -> exitedToRestart(pod, c, exitCode, backOff, now)).toList());
        return status;
    }

    private static ContainerStatus exitedToRestart(Pod pod, Container c, int exitCode, Duration backOff, Instant now) {
        ContainerStateTerminated exit = terminatedState(pod, c, exitCode, exitCode == 0 ? "Completed" : "Error", now).build();
        ContainerStatusBuilder container = new ContainerStatusBuilder(base(pod, c)).withReady(false).withStarted(false);
        if (backOff.isZero()) {
            return container.withNewState().withTerminated(exit).endState().build();
        }
        return container.withNewLastState().withTerminated(exit).endLastState()
                .withNewState().withNewWaiting("back-off " + goDuration(backOff) + " restarting failed container="
                        + c.getName() + " pod=" + podName(pod), "CrashLoopBackOff").endState().build();
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
        status.setInitContainerStatuses(sidecarsStopped(pod, status.getInitContainerStatuses(), now));
        return status;
    }

    /**
     * Init container statuses with the running sidecars stopped at {@code now}, as the kubelet stops them once the
     * containers have ended: each exits 0 ({@code Completed}), as a sidecar that handles SIGTERM does, so that the
     * pod's phase and its exit codes stay those of its containers.
     */
    private static List<ContainerStatus> sidecarsStopped(Pod pod, List<ContainerStatus> inits, Instant now) {
        return inits.stream().map(s -> {
            Optional<Container> sidecar = pod.getSpec().getInitContainers().stream()
                    .filter(c -> c.getName().equals(s.getName()) && Sidecars.isSidecar(c)).findFirst();
            if (sidecar.isEmpty() || s.getState() == null || s.getState().getRunning() == null) {
                return s;
            }
            return new ContainerStatusBuilder(s).withReady(false).withStarted(false).withNewState()
                    .withTerminated(terminatedState(pod, sidecar.get(), 0, "Completed", now).build()).endState().build();
        }).toList();
    }

    /**
     * The init containers' statuses when those before {@code upTo} are through: each one that is not a sidecar
     * completed (at {@code now}, unless its status says it did before), each sidecar running (since {@code now},
     * unless it runs already), and the others waiting with reason {@code PodInitializing}.
     */
    private static List<ContainerStatus> initStatuses(Pod pod, int upTo, Instant now) {
        List<Container> inits = pod.getSpec().getInitContainers();
        List<ContainerStatus> statuses = new ArrayList<>();
        String time = timestamp(now);
        for (int i = 0; i < inits.size(); i++) {
            Container init = inits.get(i);
            Optional<ContainerStatus> current = currentStatus(pod, init.getName());
            ContainerStatusBuilder status = new ContainerStatusBuilder(base(pod, init));
            if (i >= upTo) {
                statuses.add(status.withReady(false).withStarted(false)
                        .withNewState().withNewWaiting(null, "PodInitializing").endState().build());
            } else if (Sidecars.isSidecar(init)) {
                statuses.add(current.filter(s -> s.getState() != null && s.getState().getRunning() != null)
                        .orElseGet(() -> status.withReady(true).withStarted(true)
                                .withNewState().withNewRunning(time).endState().build()));
            } else if (completed(current)) {
                statuses.add(current.get());
            } else {
                ContainerStateTerminated done = terminatedState(pod, init, 0, "Completed", now).build();
                if (done.getStartedAt() == null) {
                    done.setStartedAt(time);
                }
                statuses.add(status.withReady(true).withStarted(false).withNewState().withTerminated(done).endState().build());
            }
        }
        return statuses;
    }

    /**
     * Sets a Pending pod's init container statuses and its containers waiting for them, with the conditions a
     * kubelet gives it meanwhile: not {@code Initialized}, naming the init containers still to complete (or, for
     * sidecars, to start), and not ready, naming the containers.
     */
    private static void initializing(Pod pod, PodStatus status, List<ContainerStatus> inits, String time) {
        status.setPhase(PodPhase.Pending.name());
        status.setInitContainerStatuses(inits);
        status.setContainerStatuses(pod.getSpec().getContainers().stream()
                .map(c -> new ContainerStatusBuilder(base(pod, c)).withContainerID(null).withReady(false).withStarted(false)
                        .withNewState().withNewWaiting(null, "PodInitializing").endState().build())
                .toList());
        List<String> incomplete = new ArrayList<>();
        List<String> unready = new ArrayList<>();
        List<Container> initContainers = pod.getSpec().getInitContainers();
        for (int i = 0; i < initContainers.size(); i++) {
            ContainerStatus init = inits.get(i);
            if (Sidecars.isSidecar(initContainers.get(i))) {
                if (!Boolean.TRUE.equals(init.getStarted())) {
                    incomplete.add(init.getName());
                }
                if (!Boolean.TRUE.equals(init.getReady())) {
                    unready.add(init.getName());
                }
            } else if (!completed(Optional.of(init))) {
                incomplete.add(init.getName());
            }
        }
        pod.getSpec().getContainers().forEach(c -> unready.add(c.getName()));
        setCondition(status, "PodScheduled", "True", null, time);
        setCondition(status, "Initialized", "False", "ContainersNotInitialized",
                "containers with incomplete status: [" + String.join(" ", incomplete) + "]", time);
        String notReady = "containers with unready status: [" + String.join(" ", unready) + "]";
        setCondition(status, "ContainersReady", "False", "ContainersNotReady", notReady, time);
        setCondition(status, "Ready", "False", "ContainersNotReady", notReady, time);
    }

    /** Sets the pod's start time and addresses, unless it has them: given when its init containers started. */
    private static void placed(PodStatus status, String hostIp, String podIp, String time) {
        if (status.getPodIP() != null) {
            return;
        }
        status.setStartTime(time);
        status.setHostIP(hostIp);
        status.setHostIPs(List.of(new HostIP(hostIp)));
        status.setPodIP(podIp);
        status.setPodIPs(List.of(new PodIP(podIp)));
    }

    private static boolean completed(Optional<ContainerStatus> init) {
        return init.filter(s -> s.getState() != null && s.getState().getTerminated() != null
                && Integer.valueOf(0).equals(s.getState().getTerminated().getExitCode())).isPresent();
    }

    private static Optional<ContainerStatus> initStatus(Pod pod, int index) {
        return currentStatus(pod, pod.getSpec().getInitContainers().get(index).getName());
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

    /** A container's or init container's status: Kubernetes names each of a pod's containers apart. */
    private static Optional<ContainerStatus> currentStatus(Pod pod, String container) {
        return pod.getStatus() == null ? Optional.empty()
                : Stream.concat(pod.getStatus().getContainerStatuses().stream(),
                        pod.getStatus().getInitContainerStatuses().stream())
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
        return currentStatus(pod, container).filter(s -> s.getState() != null && s.getState().getRunning() != null)
                .map(s -> s.getState().getRunning().getStartedAt())
                .orElse(pod.getStatus().getStartTime());
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
