package dev.muster.local.server;

import dev.muster.local.protocol.FieldError;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** The log of a pod's container on the local cluster, from its stored status and the request's options. */
class PodLogsTest {
    private static final Instant NOW = Instant.parse("2025-03-01T10:05:00Z");
    private static final String SIMULATED = "container \"main\" is simulated: the local cluster pulls and runs no image"
            + " (busybox), so it has no output; these lines tell what the simulated kubelet did\n";
    private static final String MAIN_ANNOTATIONS =
            "pod annotations local.muster.dev/run-seconds and local.muster.dev/exit-code";

    /** Pending and bound, with a running, a finished, a crash-looping and a restarted container. */
    private static final Pod RUNNING = pod("""
            metadata: {name: w-0, annotations: {local.muster.dev/run-seconds: "30", local.muster.dev/exit-code: "3"}}
            spec: {nodeName: node-0, restartPolicy: Never, containers: [{name: main, image: busybox}]}
            status:
              phase: Running
              containerStatuses:
              - {name: main, restartCount: 0, state: {running: {startedAt: "2025-03-01T10:00:00Z"}}}
            """);
    private static final Pod SUCCEEDED = pod("""
            metadata: {name: w-0}
            spec: {nodeName: node-0, restartPolicy: Never, containers: [{name: main, image: busybox}]}
            status:
              phase: Succeeded
              containerStatuses:
              - name: main
                restartCount: 0
                state: {terminated: {exitCode: 0, reason: Completed, startedAt: "2025-03-01T10:00:00Z", finishedAt: "2025-03-01T10:00:05Z"}}
            """);
    private static final Pod CRASH_LOOPING = pod("""
            metadata: {name: w-0, labels: {local.muster.dev/exit-code: "1"}}
            spec: {nodeName: node-0, restartPolicy: OnFailure, containers: [{name: main, image: busybox}]}
            status:
              phase: Running
              containerStatuses:
              - name: main
                restartCount: 2
                state: {waiting: {reason: CrashLoopBackOff, message: back-off 20s}}
                lastState: {terminated: {exitCode: 1, reason: Error, startedAt: "2025-03-01T10:01:00Z", finishedAt: "2025-03-01T10:01:30Z"}}
            """);
    private static final Pod RESTARTED = pod("""
            metadata: {name: w-0}
            spec: {nodeName: node-0, restartPolicy: Always, containers: [{name: main, image: busybox}]}
            status:
              phase: Running
              containerStatuses:
              - name: main
                restartCount: 3
                state: {running: {startedAt: "2025-03-01T10:02:00Z"}}
                lastState: {terminated: {exitCode: 0, reason: Completed, startedAt: "2025-03-01T10:01:00Z", finishedAt: "2025-03-01T10:01:30Z"}}
            """);
    private static final Pod STOPPED = pod("""
            metadata: {name: w-0, deletionTimestamp: "2025-03-01T10:00:09Z"}
            spec: {nodeName: node-0, restartPolicy: Never, containers: [{name: main, image: busybox}]}
            status:
              phase: Failed
              containerStatuses:
              - name: main
                state: {terminated: {exitCode: 143, reason: Error, startedAt: "2025-03-01T10:00:00Z", finishedAt: "2025-03-01T10:00:10Z"}}
            """);
    /** Init containers, a sidecar and two containers, still initialising. */
    private static final Pod MANY = pod("""
            metadata: {name: w-1, annotations: {local.muster.dev/init-seconds: "2.50"}}
            spec:
              nodeName: node-1
              restartPolicy: Never
              initContainers: [{name: fetch, image: curl}, {name: proxy, image: envoy, restartPolicy: Always}]
              containers: [{name: main, image: busybox}, {name: helper, image: busybox}]
            status:
              phase: Pending
              initContainerStatuses:
              - {name: fetch, state: {running: {startedAt: "2025-03-01T10:00:00Z"}}}
              - {name: proxy, state: {waiting: {reason: PodInitializing}}}
              containerStatuses:
              - {name: main, state: {waiting: {reason: PodInitializing}}}
              - {name: helper, state: {waiting: {reason: PodInitializing}}}
            """);
    private static final Pod SIDECAR_STOPPED = pod("""
            metadata: {name: w-1}
            spec:
              nodeName: node-1
              initContainers: [{name: proxy, image: envoy, restartPolicy: Always}]
              containers: [{name: main, image: busybox}]
            status:
              initContainerStatuses:
              - name: proxy
                state: {terminated: {exitCode: 0, reason: Completed, startedAt: "2025-03-01T10:00:00Z", finishedAt: "2025-03-01T10:00:40Z"}}
            """);
    private static final Pod UNBOUND = pod("""
            metadata: {name: w-2}
            spec: {containers: [{name: main, image: busybox}]}
            status: {phase: Pending}
            """);
    private static final Pod BOUND_NOT_STARTED = pod("""
            metadata: {name: w-3}
            spec: {nodeName: node-0, containers: [{name: main, image: busybox}]}
            status: {phase: Pending}
            """);

    static Stream<Arguments> logs() {
        return Stream.of(
                arguments("a running container, its plan from the annotations", RUNNING, "", SIMULATED
                        + "started on node node-0\n"
                        + "runs for 30s, then exits with code 3 (" + MAIN_ANNOTATIONS + ")\n"),
                arguments("timestamps: each line starts with when it happened", RUNNING, "?timestamps=true",
                        "2025-03-01T10:00:00.000000000Z " + SIMULATED
                                + "2025-03-01T10:00:00.000000000Z started on node node-0\n"
                                + "2025-03-01T10:00:00.000000000Z runs for 30s, then exits with code 3 (" + MAIN_ANNOTATIONS + ")\n"),
                arguments("the container named", RUNNING, "?container=main&follow=true", SIMULATED
                        + "started on node node-0\n"
                        + "runs for 30s, then exits with code 3 (" + MAIN_ANNOTATIONS + ")\n"),
                arguments("a finished container, its exit and how long it ran", SUCCEEDED, "?timestamps=1", ""
                        + "2025-03-01T10:00:00.000000000Z " + SIMULATED
                        + "2025-03-01T10:00:00.000000000Z started on node node-0\n"
                        + "2025-03-01T10:00:05.000000000Z exited with code 0 after 5s (" + MAIN_ANNOTATIONS + ")\n"),
                arguments("tailLines", SUCCEEDED, "?tailLines=1",
                        "exited with code 0 after 5s (" + MAIN_ANNOTATIONS + ")\n"),
                arguments("tailLines=0", SUCCEEDED, "?tailLines=0", ""),
                arguments("limitBytes", SUCCEEDED, "?tailLines=1&limitBytes=16", "exited with code"),
                arguments("sinceTime: the lines from then on", SUCCEEDED, "?sinceTime=2025-03-01T10:00:01Z",
                        "exited with code 0 after 5s (" + MAIN_ANNOTATIONS + ")\n"),
                arguments("sinceSeconds: the lines of the last seconds", SUCCEEDED, "?sinceSeconds=297",
                        "exited with code 0 after 5s (" + MAIN_ANNOTATIONS + ")\n"),
                arguments("sinceSeconds before everything", RESTARTED, "?sinceSeconds=3600&tailLines=2",
                        "started on node node-0 (restart 3)\n"
                                + "runs until the pod is deleted (restart policy Always; annotation"
                                + " local.muster.dev/run-seconds ends each run after that many seconds)\n"),
                arguments("crash-looping: its last exit, numbered by its restarts", CRASH_LOOPING, "?timestamps=true",
                        "2025-03-01T10:01:00.000000000Z " + SIMULATED
                                + "2025-03-01T10:01:00.000000000Z started on node node-0 (restart 2)\n"
                                + "2025-03-01T10:01:30.000000000Z exited with code 1 after 30s (" + MAIN_ANNOTATIONS + ")\n"),
                arguments("previous while crash-looping: the same last exit", CRASH_LOOPING, "?previous=true&tailLines=2",
                        "started on node node-0 (restart 2)\n"
                                + "exited with code 1 after 30s (" + MAIN_ANNOTATIONS + ")\n"),
                arguments("previous once running again: the run before", RESTARTED, "?previous=true&tailLines=2",
                        "started on node node-0 (restart 2)\n"
                                + "exited with code 0 after 30s (" + MAIN_ANNOTATIONS + ")\n"),
                arguments("stopped for the pod's deletion", STOPPED, "?tailLines=1",
                        "stopped for the pod's deletion after 10s: exit code 143 (SIGTERM)\n"),
                arguments("an init container, by its own annotations", MANY, "?container=fetch&tailLines=2",
                        "started on node node-1\nruns for 2.5s, then exits with code 0 (pod annotations"
                                + " local.muster.dev/init-seconds and local.muster.dev/init-exit-code)\n"),
                arguments("a sidecar, stopped when the containers ended", SIDECAR_STOPPED, "?container=proxy&tailLines=1",
                        "stopped after 40s once the pod's containers had ended: exit code 0\n"),
                arguments("a pod not bound to a node: empty, as kube-apiserver has no kubelet to ask", UNBOUND, "", ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void logs(String what, Pod pod, String query, String expected) {
        PodLogs.Answer answer = PodLogs.log(pod, PodLogs.options("/log" + query), NOW);

        assertThat(answer).isEqualTo(new PodLogs.Log(expected));
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                arguments("several containers and none named: kube-apiserver lists init containers first", MANY, "",
                        "a container name must be specified for pod w-1, choose one of: [fetch proxy main helper]"),
                arguments("a container the pod does not have", RUNNING, "?container=mian",
                        "container mian is not valid for pod w-0"),
                arguments("a container waiting for the init containers", MANY, "?container=main",
                        "container \"main\" in pod \"w-1\" is waiting to start: PodInitializing"),
                arguments("bound, its status not written yet", BOUND_NOT_STARTED, "",
                        "container \"main\" in pod \"w-3\" is waiting to start: ContainerCreating"),
                arguments("previous of a first run", RUNNING, "?previous=true",
                        "previous terminated container \"main\" in pod \"w-0\" not found"),
                arguments("previous of a container not started", BOUND_NOT_STARTED, "?previous=true",
                        "previous terminated container \"main\" in pod \"w-3\" not found"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void refusals(String what, Pod pod, String query, String message) {
        PodLogs.Answer answer = PodLogs.log(pod, PodLogs.options("/log" + query), NOW);

        assertThat(answer).isEqualTo(new PodLogs.Refused(message));
    }

    @Test
    void optionsFailingValidationAreEachNamedAsTheApiServerNamesThem() {
        assertThat(PodLogs.invalid(PodLogs.options("/log?tailLines=-1&limitBytes=0&sinceSeconds=0")))
                .extracting(FieldError::toString).containsExactly(
                        "tailLines: Invalid value: -1: must be greater than or equal to 0",
                        "limitBytes: Invalid value: 0: must be greater than 0",
                        "sinceSeconds: Invalid value: 0: must be greater than 0");
        assertThat(PodLogs.invalid(PodLogs.options("/log?sinceSeconds=5&sinceTime=2025-03-01T10:00:00Z")))
                .extracting(FieldError::toString)
                .containsExactly(": Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified");
        assertThat(PodLogs.invalid(PodLogs.options("/log?tailLines=0&limitBytes=1&sinceSeconds=1"))).isEmpty();
    }

    @Test
    void optionsThatAreNoNumberOrTimeAreRefused() {
        assertThatThrownBy(() -> PodLogs.options("/log?tailLines=ten"))
                .hasMessage("strconv.ParseInt: parsing \"ten\": invalid syntax");
        assertThatThrownBy(() -> PodLogs.options("/log?sinceTime=yesterday"))
                .hasMessage("sinceTime: \"yesterday\" is not an RFC 3339 time");
    }

    @Test
    void anInvalidRunTimeIsReportedAsTheKubeletReadsIt() {
        Pod pod = pod(Serialization.asYaml(RUNNING).replace("\"30\"", "\"soon\""));

        PodLogs.Answer answer = PodLogs.log(pod, PodLogs.options("/log?tailLines=1"), NOW);

        assertThat(answer).isEqualTo(new PodLogs.Log("runs for the local cluster's default run time, as"
                + " local.muster.dev/run-seconds \"soon\" is not a number of seconds, then exits with code 3 ("
                + MAIN_ANNOTATIONS + ")\n"));
    }

    private static Pod pod(String yaml) {
        return Serialization.unmarshal(yaml, Pod.class);
    }
}
