package dev.muster.local.server;

import dev.muster.api.KubeTime;
import dev.muster.api.MusterLabels;
import dev.muster.api.Sidecars;
import dev.muster.local.protocol.FieldError;
import dev.muster.local.protocol.RequestQuery;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What {@code GET pods/{name}/log} answers on the local cluster, as a pure function of the pod and the request's
 * {@code PodLogOptions}. No container runs here, so a container's log is the simulated kubelet's account of it:
 * one line per step, stamped when it happened and read from the container's status ({@code startedAt},
 * {@code finishedAt}, {@code exitCode}, {@code restartCount}, {@code lastState}) and the pod annotations that decided
 * it ({@code local.muster.dev/run-seconds}, {@code exit-code}, {@code init-seconds}, {@code init-exit-code}).
 * <p>
 * The refusals are kube-apiserver's and, for what it leaves to the kubelet, the kubelet's, with their wording: the
 * options' validation (422), the choice of container (400), a container with nothing to show yet or no previous
 * instance (400). A pod not bound to a node has no kubelet to ask: kube-apiserver answers it with an empty
 * log, and so does this. {@code follow} is accepted and answers what there is, then ends: nothing streams.
 */
final class PodLogs {
    /** The kubelet's timestamp prefix: RFC 3339 with nine digits of fraction. */
    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSSSS'Z'").withZone(ZoneOffset.UTC);
    private static final int SIGTERM_EXIT_CODE = 143;
    private static final String RUN_SECONDS = MusterLabels.LOCAL_RUN_SECONDS;
    private static final String EXIT_CODE = MusterLabels.LOCAL_EXIT_CODE;
    private static final String INIT_SECONDS = MusterLabels.LOCAL_INIT_SECONDS;
    private static final String INIT_EXIT_CODE = MusterLabels.LOCAL_INIT_EXIT_CODE;

    private PodLogs() {
    }

    /**
     * The query parameters of a log request, as kube-apiserver reads {@code PodLogOptions}.
     *
     * @param container    the container named, or null
     * @param previous     whether the last terminated instance is asked for
     * @param timestamps   whether each line starts with its timestamp
     * @param tailLines    how many lines from the end, or null for all
     * @param limitBytes   how many bytes at most, or null
     * @param sinceSeconds only lines of the last so many seconds, or null
     * @param sinceTime    only lines from then on, or null
     */
    record Options(String container, boolean previous, boolean timestamps, Long tailLines, Long limitBytes,
                   Long sinceSeconds, Instant sinceTime) {
    }

    /** An answer: the log's text, or a refusal. */
    sealed interface Answer permits Log, Refused {
    }

    /** The log, possibly empty. */
    record Log(String text) implements Answer {
    }

    /** A 400, with kube-apiserver's message or the kubelet's that it passes on. */
    record Refused(String message) implements Answer {
    }

    /**
     * The options of a request path with query.
     *
     * @throws IllegalArgumentException for a value kube-apiserver cannot convert (answered 400), with its message
     */
    static Options options(String pathWithQuery) {
        return new Options(RequestQuery.parameter(pathWithQuery, "container").filter(c -> !c.isEmpty()).orElse(null),
                RequestQuery.flag(pathWithQuery, "previous").orElse(false),
                RequestQuery.flag(pathWithQuery, "timestamps").orElse(false),
                integer(pathWithQuery, "tailLines"), integer(pathWithQuery, "limitBytes"),
                integer(pathWithQuery, "sinceSeconds"),
                RequestQuery.parameter(pathWithQuery, "sinceTime").map(PodLogs::time).orElse(null));
    }

    /** What kube-apiserver's validation of {@code PodLogOptions} finds wrong with them (answered 422); empty if nothing. */
    static List<FieldError> invalid(Options options) {
        List<FieldError> errors = new ArrayList<>();
        if (options.tailLines() != null && options.tailLines() < 0) {
            errors.add(FieldError.invalid("tailLines", options.tailLines(), "must be greater than or equal to 0"));
        }
        if (options.limitBytes() != null && options.limitBytes() < 1) {
            errors.add(FieldError.invalid("limitBytes", options.limitBytes(), "must be greater than 0"));
        }
        if (options.sinceSeconds() != null && options.sinceTime() != null) {
            errors.add(new FieldError(FieldError.Type.FORBIDDEN, "", null,
                    "at most one of `sinceTime` or `sinceSeconds` may be specified"));
        } else if (options.sinceSeconds() != null && options.sinceSeconds() < 1) {
            errors.add(FieldError.invalid("sinceSeconds", options.sinceSeconds(), "must be greater than 0"));
        }
        return errors;
    }

    /** The answer for {@code pod} at {@code now}. */
    static Answer log(Pod pod, Options options, Instant now) {
        String podName = pod.getMetadata().getName();
        List<Container> containers = pod.getSpec().getContainers();
        String name = options.container();
        if (name == null) {
            // kube-apiserver picks the only container and no other: kubectl's default container is kubectl's.
            if (containers.size() != 1) {
                return new Refused("a container name must be specified for pod " + podName + (containers.isEmpty() ? ""
                        : ", choose one of: [" + String.join(" ", allContainers(pod).map(Container::getName).toList()) + "]"));
            }
            name = containers.get(0).getName();
        }
        String chosen = name;
        Optional<Container> container = allContainers(pod).filter(c -> c.getName().equals(chosen)).findFirst();
        if (container.isEmpty()) {
            return new Refused("container " + name + " is not valid for pod " + podName);
        }
        String nodeName = pod.getSpec().getNodeName();
        if (nodeName == null || nodeName.isEmpty()) {
            return new Log("");
        }
        return instance(pod, chosen, options.previous())
                .map(instance -> (Answer) new Log(text(lines(pod, container.get(), nodeName, instance), options, now)))
                .orElseGet(() -> refusal(pod, chosen, options.previous()));
    }

    /**
     * Init containers (sidecars among them), then containers, then ephemeral ones, kube-apiserver's order; an
     * ephemeral container by its name and image, which is all a log of it needs.
     */
    private static Stream<Container> allContainers(Pod pod) {
        return Stream.of(pod.getSpec().getInitContainers().stream(), pod.getSpec().getContainers().stream(),
                pod.getSpec().getEphemeralContainers().stream()
                        .map(e -> new ContainerBuilder().withName(e.getName()).withImage(e.getImage()).build()))
                .flatMap(s -> s);
    }

    /**
     * One run of a container: when it started, how it ended (null while it runs) and how many restarts came before.
     */
    private record Instance(Instant started, ContainerStateTerminated exit, int restart) {
    }

    /** The run the kubelet shows, by its rules: the running one, else the last exit; with previous, the one before. */
    private static Optional<Instance> instance(Pod pod, String name, boolean previous) {
        Optional<ContainerStatus> found = status(pod, name);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        ContainerStatus status = found.get();
        ContainerState state = status.getState() == null ? new ContainerState() : status.getState();
        ContainerStateTerminated last = status.getLastState() == null ? null : status.getLastState().getTerminated();
        int restarts = status.getRestartCount() == null ? 0 : status.getRestartCount();
        if (previous) {
            // Waiting to restart, the last exit is of the current count's run; once running again, of the one before.
            return Optional.ofNullable(last).map(exit -> new Instance(time(exit.getStartedAt(), exit.getFinishedAt()), exit,
                    state.getWaiting() != null ? restarts : Math.max(0, restarts - 1)));
        }
        if (state.getRunning() != null) {
            return Optional.of(new Instance(time(state.getRunning().getStartedAt(), null), null, restarts));
        }
        ContainerStateTerminated exit = state.getTerminated() != null ? state.getTerminated() : last;
        return Optional.ofNullable(exit)
                .map(e -> new Instance(time(e.getStartedAt(), e.getFinishedAt()), e, restarts));
    }

    /** Why a container has no run to show, in the kubelet's words. */
    private static Refused refusal(Pod pod, String name, boolean previous) {
        String container = "container \"" + name + "\" in pod \"" + pod.getMetadata().getName() + "\"";
        if (previous) {
            return new Refused("previous terminated " + container + " not found");
        }
        // Bound but not started yet, the simulated kubelet has written no status: a kubelet reports it creating.
        String reason = status(pod, name).map(ContainerStatus::getState).map(ContainerState::getWaiting)
                .map(ContainerStateWaiting::getReason).orElse("ContainerCreating");
        return new Refused(container + " is waiting to start: " + reason);
    }

    private static Optional<ContainerStatus> status(Pod pod, String name) {
        if (pod.getStatus() == null) {
            return Optional.empty();
        }
        return Stream.of(pod.getStatus().getContainerStatuses(), pod.getStatus().getInitContainerStatuses(),
                        pod.getStatus().getEphemeralContainerStatuses())
                .flatMap(List::stream).filter(s -> name.equals(s.getName())).findFirst();
    }

    private record Line(Instant at, String text) {
    }

    /** The simulated kubelet's account of one run of the container. */
    private static List<Line> lines(Pod pod, Container container, String nodeName, Instance instance) {
        Instant started = instance.started();
        ContainerStateTerminated exit = instance.exit();
        Instant finished = exit == null ? null : time(exit.getFinishedAt(), null);
        List<Line> lines = new ArrayList<>();
        lines.add(new Line(started != null ? started : finished, "container \"" + container.getName()
                + "\" is simulated: the local cluster pulls and runs no image (" + container.getImage()
                + "), so it has no output; these lines tell what the simulated kubelet did"));
        if (exit != null && "ContainerStatusUnknown".equals(exit.getReason())) {
            lines.add(new Line(finished, "never started: the pod was deleted first (exit code " + exit.getExitCode()
                    + ", " + exit.getReason() + ")"));
            return lines;
        }
        lines.add(new Line(started, "started on node " + nodeName
                + (instance.restart() > 0 ? " (restart " + instance.restart() + ")" : "")));
        Kind kind = kindOf(pod, container);
        if (exit == null) {
            lines.add(new Line(started, plan(pod, kind)));
            return lines;
        }
        int code = exit.getExitCode() == null ? 0 : exit.getExitCode();
        String ran = started == null || finished == null ? "" : " after " + Duration.between(started, finished).toSeconds() + "s";
        if (code == SIGTERM_EXIT_CODE && pod.getMetadata().getDeletionTimestamp() != null) {
            lines.add(new Line(finished, "stopped for the pod's deletion" + ran + ": exit code 143 (SIGTERM)"));
        } else if (kind == Kind.SIDECAR) {
            lines.add(new Line(finished, "stopped" + ran + " once the pod's containers had ended: exit code " + code));
        } else {
            lines.add(new Line(finished, "exited with code " + code + ran + " (" + kind.annotations() + ")"));
        }
        return lines;
    }

    /** What a running container will do, and the annotations that decide it. */
    private static String plan(Pod pod, Kind kind) {
        if (kind == Kind.SIDECAR) {
            return "runs beside the pod's containers until they end (a sidecar: restart policy Always)";
        }
        String exitsWith = ", then exits with code " + exitCode(pod, kind.exitCode) + " (" + kind.annotations() + ")";
        String seconds = setting(pod, kind.seconds);
        if (seconds != null) {
            try {
                return "runs for " + new BigDecimal(seconds.trim()).stripTrailingZeros().toPlainString() + "s" + exitsWith;
            } catch (NumberFormatException e) {
                return "runs for the local cluster's default run time, as " + kind.seconds + " \"" + seconds
                        + "\" is not a number of seconds" + exitsWith;
            }
        }
        if (kind == Kind.INIT) {
            return "runs for no time" + exitsWith;
        }
        if ("Always".equals(pod.getSpec().getRestartPolicy())) {
            return "runs until the pod is deleted (restart policy Always; annotation " + RUN_SECONDS
                    + " ends each run after that many seconds)";
        }
        return "runs for the local cluster's default run time" + exitsWith;
    }

    /** The three kinds of container the simulated kubelet runs, each by its own annotations. */
    private enum Kind {
        CONTAINER(RUN_SECONDS, EXIT_CODE), INIT(INIT_SECONDS, INIT_EXIT_CODE), SIDECAR(null, null);

        private final String seconds;
        private final String exitCode;

        Kind(String seconds, String exitCode) {
            this.seconds = seconds;
            this.exitCode = exitCode;
        }

        String annotations() {
            return "pod annotations " + seconds + " and " + exitCode;
        }
    }

    private static Kind kindOf(Pod pod, Container container) {
        if (pod.getSpec().getInitContainers().stream().noneMatch(c -> c.getName().equals(container.getName()))) {
            return Kind.CONTAINER;
        }
        return Sidecars.isSidecar(container) ? Kind.SIDECAR : Kind.INIT;
    }

    /** The exit code the simulated kubelet gives: the setting, else 0, as when it is not an integer. */
    private static int exitCode(Pod pod, String key) {
        String value = setting(pod, key);
        try {
            return value == null ? 0 : Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** An annotation, or a label of the same name, as the simulated kubelet reads its settings. */
    private static String setting(Pod pod, String key) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        if (annotations != null && annotations.containsKey(key)) {
            return annotations.get(key);
        }
        Map<String, String> labels = pod.getMetadata().getLabels();
        return labels == null ? null : labels.get(key);
    }

    /** The lines the options select, in the kubelet's order: since, then tail, then the byte limit. */
    private static String text(List<Line> lines, Options options, Instant now) {
        Instant since = options.sinceTime() != null ? options.sinceTime()
                : options.sinceSeconds() != null ? now.minusSeconds(options.sinceSeconds()) : null;
        List<Line> selected = lines.stream().filter(l -> since == null || l.at() == null || !l.at().isBefore(since)).toList();
        if (options.tailLines() != null && options.tailLines() < selected.size()) {
            selected = selected.subList(selected.size() - options.tailLines().intValue(), selected.size());
        }
        StringBuilder text = new StringBuilder();
        for (Line line : selected) {
            if (options.timestamps()) {
                text.append(line.at() == null ? "" : TIMESTAMP.format(line.at())).append(' ');
            }
            text.append(line.text()).append('\n');
        }
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        if (options.limitBytes() != null && options.limitBytes() < bytes.length) {
            return new String(bytes, 0, options.limitBytes().intValue(), StandardCharsets.UTF_8);
        }
        return text.toString();
    }

    private static Instant time(String text, String fallback) {
        String value = text != null ? text : fallback;
        return value == null ? null : KubeTime.parse(value);
    }

    private static Long integer(String pathWithQuery, String name) {
        return RequestQuery.parameter(pathWithQuery, name).map(value -> {
            try {
                return Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("strconv.ParseInt: parsing \"" + value + "\": invalid syntax");
            }
        }).orElse(null);
    }

    private static Instant time(String value) {
        try {
            return KubeTime.parse(value);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("sinceTime: \"" + value + "\" is not an RFC 3339 time");
        }
    }
}
