package dev.muster.api.batch.v1alpha1;

import dev.muster.api.batch.v1alpha1.validation.FieldError;
import dev.muster.api.batch.v1alpha1.validation.JobValidator;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every kind of bad input from issue 3 fed through both enforcement points: the generated CRD (OpenAPI
 * constraints and CEL rules, as a real API server applies them at admission) and {@link JobValidator},
 * whose message the controller writes to {@code status.state.message} with reason InvalidSpec. A case
 * with no admission message is one CEL cannot express; the controller alone refuses it. job-controller's
 * {@code InvalidSpecCorpusTest} feeds the same cases through the controller's decision.
 */
public class JobValidationCorpusTest {
    private static GeneratedCrdSchema crd;

    @BeforeAll
    static void loadCrd() {
        crd = GeneratedCrdSchema.job();
    }

    private static final String HEAD = """
            apiVersion: batch.muster.dev/v1alpha1
            kind: Job
            metadata: {name: train}
            spec:
            """;
    private static final String CONTAINERS = "template: {spec: {containers: [{name: m, image: busybox}]}}";

    /** A job of the given spec lines (indented by two), with tasks {@code tasks}. */
    private static Job job(String spec) {
        return Serialization.unmarshal(HEAD + spec.indent(2), Job.class);
    }

    private static String worker(String extra) {
        return "- {name: worker, replicas: 3, " + CONTAINERS + extra + "}";
    }

    private static Arguments bad(String name, String spec, List<String> admission, List<String> controller) {
        return Arguments.of(name, job(spec), admission, controller);
    }

    /** The cases: name, job, admission messages, controller messages; shared with job-controller's tests. */
    public static Stream<Arguments> corpus() {
        String tasks = "tasks:\n" + worker("") + "\n";
        return Stream.of(
                bad("no tasks", "tasks: []",
                        List.of("spec.tasks: should have at least 1 items"),
                        List.of("spec.tasks: must list at least one task")),
                bad("duplicate task names", "tasks:\n" + worker("") + "\n" + worker(""),
                        List.of("spec: task names must be unique"),
                        List.of("spec.tasks[1].name: duplicate task name 'worker'")),
                bad("task name not a DNS label", "tasks:\n- {name: Worker_1, " + CONTAINERS + "}",
                        List.of("spec.tasks[0].name: should match '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'"),
                        List.of("spec.tasks[0].name: 'Worker_1' must be a DNS-1123 label (lower-case letters, digits and '-', "
                                + "starting and ending with a letter or digit)")),
                bad("negative replicas", "tasks:\n- {name: worker, replicas: -1, " + CONTAINERS + "}",
                        List.of("spec.tasks[0].replicas: should be greater than or equal to 0"),
                        List.of("spec.tasks[0].replicas: must be >= 0, was -1")),
                bad("negative minAvailable", "minAvailable: -1\n" + tasks,
                        List.of("spec.minAvailable: should be greater than or equal to 0"),
                        List.of("spec.minAvailable: must be >= 0, was -1")),
                bad("task minAvailable above replicas", "tasks:\n" + worker(", minAvailable: 4"),
                        List.of("spec.tasks[0]: minAvailable must not exceed replicas"),
                        List.of("spec.tasks[0].minAvailable: must not exceed replicas (3), was 4")),
                bad("job minAvailable above total replicas", "minAvailable: 4\n" + tasks,
                        List.of(),
                        List.of("spec.minAvailable: must not exceed the total replicas of all tasks (3), was 4")),
                bad("unknown policy event", "policies: [{event: PodExploded, action: RestartJob}]\n" + tasks,
                        List.of("spec.policies[0]: events must be PodFailed, PodEvicted, PodPending, Unknown, TaskCompleted, TaskFailed or *"),
                        List.of("spec.policies[0].event: unknown event 'PodExploded'; one of PodFailed, PodEvicted, PodPending, "
                                + "Unknown, TaskCompleted, TaskFailed, *")),
                bad("unknown policy action", "policies: [{event: PodFailed, action: Reboot}]\n" + tasks,
                        List.of("spec.policies[0]: action must be one of AbortJob, RestartJob, RestartTask, RestartPod, "
                                + "TerminateJob, CompleteJob"),
                        List.of("spec.policies[0].action: unknown action 'Reboot'; one of AbortJob, RestartJob, RestartTask, "
                                + "RestartPod, TerminateJob, CompleteJob")),
                bad("event and exitCode together", "policies: [{event: PodFailed, exitCode: 3, action: RestartJob}]\n" + tasks,
                        List.of("spec.policies[0]: set either event/events or exitCode, exactly one of them"),
                        List.of("spec.policies[0]: set either event/events or exitCode, not both")),
                bad("neither event nor exitCode", "policies: [{action: RestartJob}]\n" + tasks,
                        List.of("spec.policies[0]: set either event/events or exitCode, exactly one of them"),
                        List.of("spec.policies[0]: set event/events or exitCode")),
                bad("exitCode 0", "policies: [{exitCode: 0, action: RestartJob}]\n" + tasks,
                        List.of("spec.policies[0]: exitCode must not be 0, which means success"),
                        List.of("spec.policies[0].exitCode: must not be 0, which means success")),
                bad("duplicate events", "policies: [{event: PodFailed, action: RestartJob}, {events: [PodEvicted, PodFailed], action: AbortJob}]\n" + tasks,
                        List.of("spec.policies: an event may be handled by one policy only"),
                        List.of("spec.policies[1].event: event 'PodFailed' is handled more than once")),
                bad("duplicate exit codes", "policies: [{exitCode: 3, action: RestartJob}, {exitCode: 3, action: AbortJob}]\n" + tasks,
                        List.of("spec.policies: an exit code may be handled by one policy only"),
                        List.of("spec.policies[1].exitCode: exit code 3 is handled more than once")),
                bad("* with other events", "policies: [{event: '*', action: RestartJob}, {event: PodEvicted, action: AbortJob}]\n" + tasks,
                        List.of("spec.policies: '*' cannot be combined with other events"),
                        List.of("spec.policies: '*' cannot be combined with other events")),
                bad("bad timeout", "policies: [{event: PodPending, action: AbortJob, timeout: 5 minutes}]\n" + tasks,
                        List.of("spec.policies[0].timeout: should match '^([0-9]+(\\.[0-9]+)?(h|m|s|ms))+$'"),
                        List.of("spec.policies[0].timeout: '5 minutes' is not a duration like 30s, 5m or 1h30m")),
                bad("task-level policy problems", "tasks:\n" + worker(", policies: [{exitCode: 0, action: Reboot}]"),
                        List.of("spec.tasks[0].policies[0]: exitCode must not be 0, which means success",
                                "spec.tasks[0].policies[0]: action must be one of AbortJob, RestartJob, RestartTask, RestartPod, "
                                        + "TerminateJob, CompleteJob"),
                        List.of("spec.tasks[0].policies[0].exitCode: must not be 0, which means success",
                                "spec.tasks[0].policies[0].action: unknown action 'Reboot'; one of AbortJob, RestartJob, "
                                        + "RestartTask, RestartPod, TerminateJob, CompleteJob")),
                bad("dependsOn unknown task", "tasks:\n" + worker(", dependsOn: {name: [ps]}"),
                        List.of("spec: dependsOn must name tasks of this job"),
                        List.of("spec.tasks[0].dependsOn.name[0]: unknown task 'ps'")),
                bad("dependsOn itself", "tasks:\n" + worker(", dependsOn: {name: [worker]}"),
                        List.of("spec: a task cannot depend on itself"),
                        List.of("spec.tasks[0].dependsOn: tasks depend on each other in a cycle: worker -> worker")),
                bad("dependsOn cycle", "tasks:\n- {name: a, dependsOn: {name: [b]}, " + CONTAINERS + "}\n"
                                + "- {name: b, dependsOn: {name: [a]}, " + CONTAINERS + "}",
                        List.of(),
                        List.of("spec.tasks[0].dependsOn: tasks depend on each other in a cycle: a -> b -> a",
                                "spec.tasks[1].dependsOn: tasks depend on each other in a cycle: b -> a -> b")),
                bad("dependsOn iteration", "tasks:\n- {name: a, " + CONTAINERS + "}\n" + worker(", dependsOn: {name: [a], iteration: some}"),
                        List.of("spec.tasks[1].dependsOn.iteration: should match '^(any|all)$'"),
                        List.of("spec.tasks[1].dependsOn.iteration: must be any or all, was 'some'")),
                bad("ResumeJob as a policy action", "policies: [{event: PodFailed, action: ResumeJob}]\n" + tasks,
                        List.of("spec.policies[0]: " + JobPolicies.RESUME_JOB_MESSAGE),
                        List.of("spec.policies[0].action: " + JobPolicies.RESUME_JOB_MESSAGE)),
                bad("unknown plugin", "plugins: {ssh: [], horovod: []}\n" + tasks,
                        List.of("spec.plugins: plugins must be ssh, svc, env, pytorch, mpi or tensorflow"),
                        List.of("spec.plugins.horovod: unknown plugin 'horovod'; one of ssh, svc, env, pytorch, mpi, tensorflow")),
                bad("volume with both a claim name and a claim", "volumes: [{mountPath: /data, volumeClaimName: data, "
                                + "volumeClaim: {accessModes: [ReadWriteOnce]}}]\n" + tasks,
                        List.of("spec.volumes[0]: set either volumeClaimName or volumeClaim, exactly one of them"),
                        List.of("spec.volumes[0]: set either volumeClaimName or volumeClaim, exactly one of them")),
                bad("volume without mountPath or claim", "volumes: [{}]\n" + tasks,
                        List.of("spec.volumes[0].mountPath: Required value",
                                "spec.volumes[0]: set either volumeClaimName or volumeClaim, exactly one of them"),
                        List.of("spec.volumes[0].mountPath: is required",
                                "spec.volumes[0]: set either volumeClaimName or volumeClaim, exactly one of them")),
                bad("volumes sharing a relative mountPath", "volumes: [{mountPath: data, volumeClaimName: a}, "
                                + "{mountPath: data, volumeClaimName: b}]\n" + tasks,
                        List.of("spec.volumes[0].mountPath: mountPath must be an absolute path",
                                "spec.volumes[1].mountPath: mountPath must be an absolute path",
                                "spec.volumes: each volume needs a mountPath of its own"),
                        List.of("spec.volumes[0].mountPath: must be an absolute path, was 'data'",
                                "spec.volumes[1].mountPath: must be an absolute path, was 'data'")),
                bad("too many tasks", "tasks:\n" + IntStream.range(0, 65)
                                .mapToObj(i -> "- {name: t" + i + ", " + CONTAINERS + "}").collect(Collectors.joining("\n")),
                        List.of("spec.tasks: should have at most 64 items"),
                        List.of("spec.tasks: must list at most 64 tasks, has 65")),
                bad("pod name longer than 63 characters", "tasks:\n- {name: " + "w".repeat(60) + ", replicas: 10, " + CONTAINERS + "}",
                        List.of("<root>: pod names <job>-<task>-<index> must not be longer than 63 characters"),
                        List.of("spec.tasks[0].name: pod name 'train-" + "w".repeat(60) + "-9' would be 68 characters, more than 63")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void badInputIsRefusedAtAdmissionWhereCelCanSayItAndAlwaysByTheController(String name, Job job, List<String> admission,
                                                                              List<String> controller) {
        assertThat(crd.violations(job)).as("admission").containsExactlyInAnyOrderElementsOf(admission);
        assertThat(JobValidator.validate(job)).extracting(FieldError::toString).as("controller")
                .containsExactlyInAnyOrderElementsOf(controller);
    }

    @Test
    void validJobsWithEveryFeaturePassBoth() {
        Job job = job("""
                minAvailable: 3
                minSuccess: 2
                maxRetry: 0
                ttlSecondsAfterFinished: 60
                suspend: false
                plugins: {ssh: [], svc: ["--publish-not-ready-addresses"], env: []}
                volumes:
                - {mountPath: /data, volumeClaimName: datasets}
                - {mountPath: /scratch, volumeClaim: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}}
                policies:
                - {events: [PodEvicted, Unknown], action: RestartJob, timeout: 1m30s}
                - {exitCode: 137, action: RestartTask}
                - {exitCode: 3, action: AbortJob}
                tasks:
                - {name: master, """ + CONTAINERS + """
                , policies: [{event: TaskCompleted, action: CompleteJob}]}
                - {name: worker, replicas: 3, minAvailable: 2, maxRetry: 5, dependsOn: {name: [master], iteration: any}, """
                + CONTAINERS + """
                , policies: [{event: '*', action: RestartTask}]}
                """);

        assertThat(crd.violations(job)).isEmpty();
        assertThat(JobValidator.validate(job)).isEmpty();
    }

    @Test
    void updatesThatScaleAreAdmittedOthersRefused() {
        Job old = job("minAvailable: 2\nqueue: research\ntasks:\n" + worker(""));
        Job scaled = job("minAvailable: 3\nqueue: research\nsuspend: true\ntasks:\n" + worker(", minAvailable: 2").replace("replicas: 3", "replicas: 5"));
        Job moved = job("minAvailable: 2\nqueue: other\nmaxRetry: 1\ntasks:\n" + worker("")
                + "\n- {name: ps, " + CONTAINERS + "}");

        assertThat(crd.violations(scaled, old)).isEmpty();
        assertThat(crd.violations(moved, old)).containsExactlyInAnyOrder(
                "spec.queue: queue cannot change once the job exists",
                "spec.tasks: tasks cannot be added, removed, renamed or reordered once the job exists; "
                        + "change replicas and minAvailable instead");
        assertThat(crd.violations(moved)).as("the same spec is fine for a new job").isEmpty();
    }

    @Test
    void everyRuleOfTheGeneratedCrdCompiles() {
        assertThat(crd.rules()).hasSizeGreaterThan(10);
        crd.compileAll();
    }

    @Test
    void celListsMatchTheNamesTheValidatorKnows() {
        assertThat(CelRules.EVENTS).isEqualTo(celList(JobPolicies.EVENTS));
        assertThat(CelRules.ACTIONS).isEqualTo(celList(JobPolicies.ACTIONS));
        assertThat(CelRules.PLUGINS).isEqualTo(celList(JobPolicies.PLUGINS));
    }

    private static String celList(List<String> names) {
        return names.stream().map(n -> "'" + n + "'").collect(Collectors.joining(", ", "[", "]"));
    }
}
