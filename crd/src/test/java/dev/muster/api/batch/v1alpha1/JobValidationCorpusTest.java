package dev.muster.api.batch.v1alpha1;

import dev.muster.api.batch.v1alpha1.validation.FieldError;
import dev.muster.api.batch.v1alpha1.validation.JobValidator;
import io.fabric8.kubernetes.client.utils.Serialization;
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
 * Every kind of bad input from issue 3 with what both enforcement points say about it: the API server's
 * admission (the generated CRD's OpenAPI constraints and CEL rules; the causes of its 422, as
 * {@code field: message}) and {@link JobValidator}, whose message the controller writes to
 * {@code status.state.message} with reason InvalidSpec. A case with no admission message is one CEL cannot
 * express; the controller alone refuses it. The controller's side is checked here; the admission side by
 * local-cluster's {@code CrdAdmissionCorpusTest}, which creates every case through the emulator's admission,
 * and job-controller's {@code InvalidSpecCorpusTest} feeds the same cases through the controller's decision.
 */
public class JobValidationCorpusTest {
    /** The API server's note, after schema errors, that it did not run the CEL rules on the invalid object. */
    public static final String RULES_NOT_CHECKED = "<nil>: Invalid value: null: some validation rules were not checked "
            + "because the object was invalid; correct the existing errors to complete validation";
    private static final String OBJECT_AT_POLICY = "spec.policies[0]: Invalid value: \"object\": ";
    private static final String ARRAY_AT_POLICIES = "spec.policies: Invalid value: \"array\": ";

    private static final String HEAD = """
            apiVersion: batch.muster.dev/v1alpha1
            kind: Job
            metadata: {name: train}
            spec:
            """;
    /** A pod template for the tasks of {@link #job}. */
    public static final String CONTAINERS = "template: {spec: {containers: [{name: m, image: busybox}]}}";

    /** A job named {@code train} of the given spec lines (YAML, indented by two when added). */
    public static Job job(String spec) {
        return Serialization.unmarshal(HEAD + spec.indent(2), Job.class);
    }

    /** A task {@code worker} with 3 replicas, as a YAML list item; {@code extra} is added to its fields. */
    public static String worker(String extra) {
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
                        List.of("spec.tasks: Invalid value: 0: spec.tasks in body should have at least 1 items", RULES_NOT_CHECKED),
                        List.of("spec.tasks: must list at least one task")),
                bad("duplicate task names", "tasks:\n" + worker("") + "\n" + worker(""),
                        List.of("spec.tasks: Invalid value: \"object\": duplicate task name 'worker'"),
                        List.of("spec.tasks[1].name: duplicate task name 'worker'")),
                bad("task name not a DNS label", "tasks:\n- {name: Worker_1, " + CONTAINERS + "}",
                        List.of("spec.tasks[0].name: Invalid value: \"Worker_1\": spec.tasks[0].name in body should match "
                                + "'^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'", RULES_NOT_CHECKED),
                        List.of("spec.tasks[0].name: 'Worker_1' must be a DNS-1123 label (lower-case letters, digits and '-', "
                                + "starting and ending with a letter or digit)")),
                bad("negative replicas", "tasks:\n- {name: worker, replicas: -1, " + CONTAINERS + "}",
                        List.of("spec.tasks[0].replicas: Invalid value: -1: spec.tasks[0].replicas in body should be greater "
                                + "than or equal to 0", RULES_NOT_CHECKED),
                        List.of("spec.tasks[0].replicas: must be >= 0, was -1")),
                bad("negative minAvailable", "minAvailable: -1\n" + tasks,
                        List.of("spec.minAvailable: Invalid value: -1: spec.minAvailable in body should be greater than or "
                                + "equal to 0", RULES_NOT_CHECKED),
                        List.of("spec.minAvailable: must be >= 0, was -1")),
                bad("task minAvailable above replicas", "tasks:\n" + worker(", minAvailable: 4"),
                        List.of("spec.tasks[0]: Invalid value: \"object\": minAvailable must not exceed replicas"),
                        List.of("spec.tasks[0].minAvailable: must not exceed replicas (3), was 4")),
                bad("job minAvailable above total replicas", "minAvailable: 4\n" + tasks,
                        List.of("spec.minAvailable: Invalid value: \"object\": must not exceed the total replicas of all tasks (3), was 4"),
                        List.of("spec.minAvailable: must not exceed the total replicas of all tasks (3), was 4")),
                bad("job minSuccess above total replicas, a task's replicas defaulting to 1",
                        "minSuccess: 5\ntasks:\n" + worker("") + "\n- {name: ps, " + CONTAINERS + "}",
                        List.of("spec.minSuccess: Invalid value: \"object\": must not exceed the total replicas of all tasks (4), was 5"),
                        List.of("spec.minSuccess: must not exceed the total replicas of all tasks (4), was 5")),
                bad("unknown policy event", "policies: [{event: PodExploded, action: RestartJob}]\n" + tasks,
                        List.of(OBJECT_AT_POLICY + "events must be PodFailed, PodEvicted, PodPending, Unknown, TaskCompleted, "
                                + "TaskFailed or *"),
                        List.of("spec.policies[0].event: unknown event 'PodExploded'; one of PodFailed, PodEvicted, PodPending, "
                                + "Unknown, TaskCompleted, TaskFailed, *")),
                bad("unknown policy action", "policies: [{event: PodFailed, action: Reboot}]\n" + tasks,
                        List.of(OBJECT_AT_POLICY + "action must be one of AbortJob, RestartJob, RestartTask, RestartPod, "
                                + "RestartPartition, TerminateJob, CompleteJob"),
                        List.of("spec.policies[0].action: unknown action 'Reboot'; one of AbortJob, RestartJob, RestartTask, "
                                + "RestartPod, RestartPartition, TerminateJob, CompleteJob")),
                bad("event and exitCode together", "policies: [{event: PodFailed, exitCode: 3, action: RestartJob}]\n" + tasks,
                        List.of(OBJECT_AT_POLICY + "set either event/events or exitCode, exactly one of them"),
                        List.of("spec.policies[0]: set either event/events or exitCode, not both")),
                bad("neither event nor exitCode", "policies: [{action: RestartJob}]\n" + tasks,
                        List.of(OBJECT_AT_POLICY + "set either event/events or exitCode, exactly one of them"),
                        List.of("spec.policies[0]: set event/events or exitCode")),
                bad("exitCode 0", "policies: [{exitCode: 0, action: RestartJob}]\n" + tasks,
                        List.of(OBJECT_AT_POLICY + "exitCode must not be 0, which means success"),
                        List.of("spec.policies[0].exitCode: must not be 0, which means success")),
                bad("duplicate events", "policies: [{event: PodFailed, action: RestartJob}, {events: [PodEvicted, PodFailed], action: AbortJob}]\n" + tasks,
                        List.of(ARRAY_AT_POLICIES + "an event may be handled by one policy only"),
                        List.of("spec.policies[1].event: event 'PodFailed' is handled more than once")),
                bad("duplicate exit codes", "policies: [{exitCode: 3, action: RestartJob}, {exitCode: 3, action: AbortJob}]\n" + tasks,
                        List.of(ARRAY_AT_POLICIES + "an exit code may be handled by one policy only"),
                        List.of("spec.policies[1].exitCode: exit code 3 is handled more than once")),
                bad("* with other events", "policies: [{event: '*', action: RestartJob}, {event: PodEvicted, action: AbortJob}]\n" + tasks,
                        List.of(ARRAY_AT_POLICIES + "'*' cannot be combined with other events"),
                        List.of("spec.policies: '*' cannot be combined with other events")),
                bad("bad timeout", "policies: [{event: PodPending, action: AbortJob, timeout: 5 minutes}]\n" + tasks,
                        List.of("spec.policies[0].timeout: Invalid value: \"5 minutes\": spec.policies[0].timeout in body "
                                + "should match '^([0-9]+(\\.[0-9]+)?(h|m|s|ms))+$'", RULES_NOT_CHECKED),
                        List.of("spec.policies[0].timeout: '5 minutes' is not a duration like 30s, 5m or 1h30m")),
                bad("bad maxRuntime", "maxRuntime: 2 hours\n" + tasks,
                        List.of("spec.maxRuntime: Invalid value: \"2 hours\": spec.maxRuntime in body "
                                + "should match '^([0-9]+(\\.[0-9]+)?(h|m|s|ms))+$'", RULES_NOT_CHECKED),
                        List.of("spec.maxRuntime: '2 hours' is not a duration like 30s, 5m or 1h30m")),
                bad("task-level policy problems", "tasks:\n" + worker(", policies: [{exitCode: 0, action: Reboot}]"),
                        List.of("spec.tasks[0].policies[0]: Invalid value: \"object\": exitCode must not be 0, which means success",
                                "spec.tasks[0].policies[0]: Invalid value: \"object\": action must be one of AbortJob, RestartJob, "
                                        + "RestartTask, RestartPod, RestartPartition, TerminateJob, CompleteJob"),
                        List.of("spec.tasks[0].policies[0].exitCode: must not be 0, which means success",
                                "spec.tasks[0].policies[0].action: unknown action 'Reboot'; one of AbortJob, RestartJob, "
                                        + "RestartTask, RestartPod, RestartPartition, TerminateJob, CompleteJob")),
                bad("dependsOn unknown task", "tasks:\n" + worker(", dependsOn: {name: [ps]}"),
                        List.of("spec: Invalid value: \"object\": dependsOn must name tasks of this job"),
                        List.of("spec.tasks[0].dependsOn.name[0]: unknown task 'ps'")),
                bad("dependsOn itself", "tasks:\n" + worker(", dependsOn: {name: [worker]}"),
                        List.of("spec: Invalid value: \"object\": a task cannot depend on itself"),
                        List.of("spec.tasks[0].dependsOn: tasks depend on each other in a cycle: worker -> worker")),
                bad("dependsOn cycle", "tasks:\n- {name: a, dependsOn: {name: [b]}, " + CONTAINERS + "}\n"
                                + "- {name: b, dependsOn: {name: [a]}, " + CONTAINERS + "}",
                        List.of(),
                        List.of("spec.tasks[0].dependsOn: tasks depend on each other in a cycle: a -> b -> a",
                                "spec.tasks[1].dependsOn: tasks depend on each other in a cycle: b -> a -> b")),
                bad("dependsOn iteration", "tasks:\n- {name: a, " + CONTAINERS + "}\n" + worker(", dependsOn: {name: [a], iteration: some}"),
                        List.of("spec.tasks[1].dependsOn.iteration: Invalid value: \"some\": spec.tasks[1].dependsOn.iteration "
                                + "in body should match '^(any|all)$'", RULES_NOT_CHECKED),
                        List.of("spec.tasks[1].dependsOn.iteration: must be any or all, was 'some'")),
                bad("ResumeJob as a policy action", "policies: [{event: PodFailed, action: ResumeJob}]\n" + tasks,
                        List.of(OBJECT_AT_POLICY + JobPolicies.RESUME_JOB_MESSAGE),
                        List.of("spec.policies[0].action: " + JobPolicies.RESUME_JOB_MESSAGE)),
                bad("unknown plugin", "plugins: {ssh: [], horovod: []}\n" + tasks,
                        List.of("spec.plugins: Invalid value: \"object\": unknown plugin 'horovod'; plugins must be ssh, svc, env, "
                                + "pytorch, mpi, tensorflow or ray"),
                        List.of("spec.plugins.horovod: unknown plugin 'horovod'; one of ssh, svc, env, pytorch, mpi, tensorflow, ray")),
                bad("volume with both a claim name and a claim", "volumes: [{mountPath: /data, volumeClaimName: data, "
                                + "volumeClaim: {accessModes: [ReadWriteOnce]}}]\n" + tasks,
                        List.of("spec.volumes[0]: Invalid value: \"object\": set either volumeClaimName or volumeClaim, "
                                + "exactly one of them"),
                        List.of("spec.volumes[0]: set either volumeClaimName or volumeClaim, exactly one of them")),
                bad("volume without mountPath or claim", "volumes: [{}]\n" + tasks,
                        List.of("spec.volumes[0].mountPath: Required value", RULES_NOT_CHECKED),
                        List.of("spec.volumes[0].mountPath: is required",
                                "spec.volumes[0]: set either volumeClaimName or volumeClaim, exactly one of them")),
                bad("volumes sharing a relative mountPath", "volumes: [{mountPath: data, volumeClaimName: a}, "
                                + "{mountPath: data, volumeClaimName: b}]\n" + tasks,
                        List.of("spec.volumes[0].mountPath: Invalid value: \"string\": mountPath must be an absolute path",
                                "spec.volumes[1].mountPath: Invalid value: \"string\": mountPath must be an absolute path",
                                "spec.volumes: Invalid value: \"array\": each volume needs a mountPath of its own"),
                        List.of("spec.volumes[0].mountPath: must be an absolute path, was 'data'",
                                "spec.volumes[1].mountPath: must be an absolute path, was 'data'")),
                bad("too many tasks", "tasks:\n" + IntStream.range(0, 65)
                                .mapToObj(i -> "- {name: t" + i + ", " + CONTAINERS + "}").collect(Collectors.joining("\n")),
                        List.of("spec.tasks: Too many: 65: must have at most 64 items", RULES_NOT_CHECKED),
                        List.of("spec.tasks: must list at most 64 tasks, has 65")),
                bad("pod name longer than 63 characters", "tasks:\n- {name: " + "w".repeat(60) + ", replicas: 10, " + CONTAINERS + "}",
                        List.of("<nil>: Invalid value: \"object\": pod names <job>-<task>-<index> must not be longer than 63 characters"),
                        List.of("spec.tasks[0].name: pod name 'train-" + "w".repeat(60) + "-9' would be 68 characters, more than 63")),
                bad("unknown networkTopology mode", "networkTopology: {mode: strict}\n" + tasks,
                        List.of("spec.networkTopology.mode: Invalid value: \"string\": networkTopology.mode must be hard or soft"),
                        List.of("spec.networkTopology.mode: must be hard or soft, was 'strict'")),
                bad("both tier limits", "networkTopology: {highestTierAllowed: 1, highestTierName: rack}\n" + tasks,
                        List.of("spec.networkTopology: Invalid value: \"object\": networkTopology: set highestTierAllowed or "
                                + "highestTierName, not both"),
                        List.of("spec.networkTopology: set highestTierAllowed or highestTierName, not both")),
                bad("negative highestTierAllowed", "networkTopology: {highestTierAllowed: -1}\n" + tasks,
                        List.of("spec.networkTopology.highestTierAllowed: Invalid value: -1: spec.networkTopology.highestTierAllowed "
                                + "in body should be greater than or equal to 0", RULES_NOT_CHECKED),
                        List.of("spec.networkTopology.highestTierAllowed: must be >= 0, was -1")),
                bad("networkTopology with schedulingConstraints", "networkTopology: {highestTierAllowed: 1}\n"
                                + "schedulingConstraints: {topology: [{key: rack}]}\n" + tasks,
                        List.of("spec: Invalid value: \"object\": set networkTopology or schedulingConstraints, not both"),
                        List.of("spec.networkTopology: set networkTopology or schedulingConstraints, not both")),
                bad("bad runningEstimate", "runningEstimate: 2 hours\n" + tasks,
                        List.of("spec.runningEstimate: Invalid value: \"2 hours\": spec.runningEstimate in body "
                                + "should match '^([0-9]+(\\.[0-9]+)?(h|m|s|ms))+$'", RULES_NOT_CHECKED),
                        List.of("spec.runningEstimate: '2 hours' is not a duration like 30s, 5m or 1h30m")),
                bad("unknown topologyPolicy", "tasks:\n" + worker(", topologyPolicy: numa"),
                        List.of("spec.tasks[0].topologyPolicy: Invalid value: \"string\": topologyPolicy must be none, "
                                + "best-effort, restricted or single-numa-node"),
                        List.of("spec.tasks[0].topologyPolicy: must be none, best-effort, restricted or single-numa-node, "
                                + "was 'numa'")),
                bad("partitionPolicy without partitions", "tasks:\n" + worker(", partitionPolicy: {totalPartitions: 0}"),
                        List.of("spec.tasks[0].partitionPolicy.partitionSize: Required value",
                                "spec.tasks[0].partitionPolicy.totalPartitions: Invalid value: 0: "
                                        + "spec.tasks[0].partitionPolicy.totalPartitions in body should be greater than or equal to 1",
                                RULES_NOT_CHECKED),
                        List.of("spec.tasks[0].partitionPolicy.totalPartitions: must be >= 1, was 0",
                                "spec.tasks[0].partitionPolicy.partitionSize: is required")),
                bad("partitions that do not cover the task", "tasks:\n"
                                + worker(", minAvailable: 3, partitionPolicy: {totalPartitions: 2, partitionSize: 2, minPartitions: 1}"),
                        List.of(),
                        List.of("spec.tasks[0].partitionPolicy: totalPartitions × partitionSize must equal the task's "
                                        + "replicas 3, is 2 × 2",
                                "spec.tasks[0].partitionPolicy.minPartitions: minPartitions × partitionSize must equal "
                                        + "the task's minAvailable 3, is 1 × 2; set one of them")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void badInputIsAlwaysRefusedByTheController(String name, Job job, List<String> admission, List<String> controller) {
        assertThat(JobValidator.validate(job)).extracting(FieldError::toString).as("controller")
                .containsExactlyInAnyOrderElementsOf(controller);
    }

    /** A valid job that uses every feature; local-cluster's admission test creates it too. */
    public static Job validJobWithEveryFeature() {
        return job("""
                minAvailable: 3
                minSuccess: 2
                maxRetry: 0
                ttlSecondsAfterFinished: 60
                suspend: false
                runningEstimate: 1h30m
                networkTopology: {mode: soft, highestTierAllowed: 2}
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
                - {name: worker, replicas: 3, minAvailable: 2, maxRetry: 5, dependsOn: {name: [master], iteration: any},
                   topologyPolicy: best-effort, partitionPolicy: {totalPartitions: 3, partitionSize: 1, minPartitions: 2,
                   networkTopology: {highestTierName: topology.muster.dev/rack}}, """
                + CONTAINERS + """
                , policies: [{event: '*', action: RestartTask}]}
                """);
    }

    @Test
    void validJobsWithEveryFeaturePassTheController() {
        assertThat(JobValidator.validate(validJobWithEveryFeature())).isEmpty();
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
