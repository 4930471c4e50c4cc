package dev.muster.api.batch.v1alpha1;

/**
 * The CEL rules ({@code x-kubernetes-validations}) of the generated Job CRD, so that a real API server
 * refuses at admission what {@link dev.muster.api.batch.v1alpha1.validation.JobValidator} refuses and CEL
 * can express. CEL has no recursion, so dependency cycles are left to the validator, which the controller runs
 * on every reconcile. Limits against the total replicas use {@code sum()} from Kubernetes' CEL list library,
 * which kube-apiserver offers in CRD rules (not standard CEL). The lists here
 * must match {@link JobPolicies}; a test checks that they do.
 */
final class CelRules {
    static final String EVENTS = "['PodFailed', 'PodEvicted', 'PodPending', 'Unknown', 'TaskCompleted', 'TaskFailed', '*']";
    static final String ACTIONS = "['AbortJob', 'RestartJob', 'RestartTask', 'RestartPod', 'RestartPartition', 'TerminateJob', 'CompleteJob']";
    static final String PLUGINS = "['ssh', 'svc', 'env', 'pytorch', 'mpi', 'tensorflow', 'ray']";

    // One policy.
    static final String EVENT_XOR_EXIT_CODE = "(has(self.event) || has(self.events)) != has(self.exitCode)";
    static final String EVENT_XOR_EXIT_CODE_MESSAGE = "set either event/events or exitCode, exactly one of them";
    static final String EXIT_CODE_NOT_ZERO = "!has(self.exitCode) || self.exitCode != 0";
    static final String EXIT_CODE_NOT_ZERO_MESSAGE = "exitCode must not be 0, which means success";
    static final String KNOWN_ACTION = "self.action == 'ResumeJob' || self.action in " + ACTIONS;
    static final String KNOWN_ACTION_MESSAGE = "action must be one of AbortJob, RestartJob, RestartTask, RestartPod, "
            + "RestartPartition, TerminateJob, CompleteJob";
    static final String NOT_RESUME = "self.action != 'ResumeJob'";
    static final String NOT_RESUME_MESSAGE = JobPolicies.RESUME_JOB_MESSAGE;
    static final String KNOWN_EVENTS = "(!has(self.event) || self.event in " + EVENTS + ") && (!has(self.events) || self.events.all(e, e in "
            + EVENTS + "))";
    static final String KNOWN_EVENTS_MESSAGE = "events must be PodFailed, PodEvicted, PodPending, Unknown, TaskCompleted, TaskFailed or *";

    // A list of policies (the job's or one task's).
    static final String UNIQUE_EVENTS = EVENTS + ".all(e, self.filter(p, has(p.event) && p.event == e).size() "
            + "+ self.filter(p, has(p.events) && e in p.events).size() <= 1) "
            + "&& self.all(p, !has(p.events) || p.events.all(e, p.events.filter(x, x == e).size() == 1))";
    static final String UNIQUE_EVENTS_MESSAGE = "an event may be handled by one policy only";
    static final String UNIQUE_EXIT_CODES = "self.all(p, !has(p.exitCode) || self.filter(q, has(q.exitCode) && q.exitCode == p.exitCode).size() == 1)";
    static final String UNIQUE_EXIT_CODES_MESSAGE = "an exit code may be handled by one policy only";
    static final String ANY_ALONE = "!self.exists(p, (has(p.event) && p.event == '*') || (has(p.events) && '*' in p.events)) "
            + "|| self.all(p, (!has(p.event) || p.event == '*') && (!has(p.events) || p.events.all(e, e == '*')))";
    static final String ANY_ALONE_MESSAGE = "'*' cannot be combined with other events";

    // A task.
    static final String TASK_MIN_AVAILABLE = "!has(self.minAvailable) || self.minAvailable <= (has(self.replicas) ? self.replicas : 1)";
    static final String TASK_MIN_AVAILABLE_MESSAGE = "minAvailable must not exceed replicas";

    // A volume, and the list of them.
    static final String CLAIM_XOR_NAME = "has(self.volumeClaimName) != has(self.volumeClaim)";
    static final String CLAIM_XOR_NAME_MESSAGE = "set either volumeClaimName or volumeClaim, exactly one of them";
    static final String ABSOLUTE_MOUNT_PATH = "self.startsWith('/')";
    static final String ABSOLUTE_MOUNT_PATH_MESSAGE = "mountPath must be an absolute path";
    static final String UNIQUE_MOUNT_PATHS = "self.all(v, !has(v.mountPath) "
            + "|| self.filter(w, has(w.mountPath) && w.mountPath == v.mountPath).size() == 1)";
    static final String UNIQUE_MOUNT_PATHS_MESSAGE = "each volume needs a mountPath of its own";

    // Volcano's network topology (the job's, or a partition's) and a task's NUMA policy.
    static final String TOPOLOGY_MODE = "self in ['hard', 'soft']";
    static final String TOPOLOGY_MODE_MESSAGE = "networkTopology.mode must be hard or soft";
    static final String ONE_TIER_LIMIT = "!has(self.highestTierAllowed) || !has(self.highestTierName)";
    static final String ONE_TIER_LIMIT_MESSAGE = "networkTopology: set highestTierAllowed or highestTierName, not both";
    static final String NUMA_POLICY = "self in ['none', 'best-effort', 'restricted', 'single-numa-node']";
    static final String NUMA_POLICY_MESSAGE = "topologyPolicy must be none, best-effort, restricted or single-numa-node";

    // The job's spec.
    static final String UNIQUE_TASKS = "self.tasks.all(t, self.tasks.filter(u, u.name == t.name).size() == 1)";
    static final String UNIQUE_TASKS_MESSAGE = "task names must be unique";
    static final String UNIQUE_TASKS_MESSAGE_EXPRESSION = "\"duplicate task name '\" + "
            + "self.tasks.filter(t, self.tasks.filter(u, u.name == t.name).size() > 1)[0].name + \"'\"";
    private static final String TOTAL_REPLICAS = "self.tasks.map(t, has(t.replicas) ? t.replicas : 1).sum()";
    private static final String TOTAL_REPLICAS_MESSAGE = "must not exceed the total replicas of all tasks";
    static final String MIN_AVAILABLE_WITHIN_REPLICAS = "!has(self.minAvailable) || self.minAvailable <= " + TOTAL_REPLICAS;
    static final String MIN_AVAILABLE_WITHIN_REPLICAS_MESSAGE = "minAvailable " + TOTAL_REPLICAS_MESSAGE;
    static final String MIN_AVAILABLE_WITHIN_REPLICAS_MESSAGE_EXPRESSION = "'" + TOTAL_REPLICAS_MESSAGE + " (' + string("
            + TOTAL_REPLICAS + ") + '), was ' + string(self.minAvailable)";
    static final String MIN_SUCCESS_WITHIN_REPLICAS = "!has(self.minSuccess) || self.minSuccess <= " + TOTAL_REPLICAS;
    static final String MIN_SUCCESS_WITHIN_REPLICAS_MESSAGE = "minSuccess " + TOTAL_REPLICAS_MESSAGE;
    static final String MIN_SUCCESS_WITHIN_REPLICAS_MESSAGE_EXPRESSION = "'" + TOTAL_REPLICAS_MESSAGE + " (' + string("
            + TOTAL_REPLICAS + ") + '), was ' + string(self.minSuccess)";
    static final String KNOWN_DEPENDENCIES = "self.tasks.all(t, !has(t.dependsOn) || !has(t.dependsOn.name) "
            + "|| t.dependsOn.name.all(n, self.tasks.exists(u, u.name == n)))";
    static final String KNOWN_DEPENDENCIES_MESSAGE = "dependsOn must name tasks of this job";
    static final String NO_SELF_DEPENDENCY = "self.tasks.all(t, !has(t.dependsOn) || !has(t.dependsOn.name) || !(t.name in t.dependsOn.name))";
    static final String NO_SELF_DEPENDENCY_MESSAGE = "a task cannot depend on itself";
    static final String ONE_TOPOLOGY = "!has(self.networkTopology) || !has(self.schedulingConstraints)";
    static final String ONE_TOPOLOGY_MESSAGE = "set networkTopology or schedulingConstraints, not both";
    static final String KNOWN_PLUGINS = "self.all(k, k in " + PLUGINS + ")";
    static final String KNOWN_PLUGINS_MESSAGE = "plugins must be ssh, svc, env, pytorch, mpi, tensorflow or ray";
    private static final String UNKNOWN_PLUGINS = "self.filter(k, !(k in " + PLUGINS + "))";
    /** Names the plugins the API server refuses; {@link #KNOWN_PLUGINS_MESSAGE} where it cannot be evaluated. */
    static final String KNOWN_PLUGINS_MESSAGE_EXPRESSION = "(" + UNKNOWN_PLUGINS + ".size() == 1 ? 'unknown plugin ' "
            + ": 'unknown plugins ') + " + UNKNOWN_PLUGINS + ".map(k, \"'\" + k + \"'\").join(', ') + '; "
            + KNOWN_PLUGINS_MESSAGE + "'";

    // Updates (transition rules): Volcano's webhook refuses these changes; here the API server does.
    // Rules inside list items would not see the old item (lists are atomic), so templates and task-level
    // fields are left to the controller, which fails a live job whose spec changed there.
    static final String UNCHANGED = "self == oldSelf";
    static final String TASK_NAMES_UNCHANGED = "self.map(t, t.name) == oldSelf.map(t, t.name)";
    static final String TASK_NAMES_UNCHANGED_MESSAGE = "tasks cannot be added, removed, renamed or reordered once the job exists; "
            + "change replicas and minAvailable instead";

    // The whole job: pod names <job>-<task>-<index> are DNS labels.
    static final String POD_NAME_LENGTH = "!has(self.spec) || !has(self.spec.tasks) || self.spec.tasks.all(t, "
            + "size(self.metadata.name) + size(t.name) + size(string((has(t.replicas) ? t.replicas : 1) - 1)) + 2 <= 63)";
    static final String POD_NAME_LENGTH_MESSAGE = "pod names <job>-<task>-<index> must not be longer than 63 characters";

    private CelRules() {
    }
}
