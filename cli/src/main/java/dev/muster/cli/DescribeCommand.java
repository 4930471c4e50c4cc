package dev.muster.cli;

import dev.muster.api.QuantityFormat;
import dev.muster.api.KubeTime;
import dev.muster.api.PodPhase;
import dev.muster.api.EffectiveRequests;
import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobCondition;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.JobState;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.api.scheduling.v1alpha1.PodGroupDefaults;
import dev.muster.manager.endpoint.SchedulerQueue;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * {@code muster describe job NAME}: a Job's spec in brief, its phase history, task counts, PodGroup
 * conditions and events, and for a Job that does not run yet, why it waits. {@code muster describe queue NAME}:
 * a Queue ({@link QueueDescription}).
 */
@Command(name = "describe", sortOptions = false,
        description = "Shows a Job in detail and, while it does not run, why it waits; or a Queue with its jobs.")
final class DescribeCommand implements Callable<Integer> {
    private static final List<PodPhase> POD_PHASES = List.of(PodPhase.Pending, PodPhase.Running, PodPhase.Succeeded,
            PodPhase.Failed);
    /** The names of the Queue kind, as kubectl accepts them: singular, plural and the CRD's short name. */
    private static final Set<String> QUEUE_KINDS = Set.of("queue", "queues", "q");

    @ParentCommand
    MusterCli cli;
    @Spec
    CommandSpec spec;
    @Mixin
    ClusterOptions cluster;
    private boolean queueKind;
    private String name;

    @Parameters(index = "0", paramLabel = "KIND", completionCandidates = Kinds.class,
            description = "The kind of object: job (a Muster Job) or queue.")
    void kind(String kind) {
        if (!JobRef.KINDS.contains(kind) && !QUEUE_KINDS.contains(kind)) {
            throw new ParameterException(spec.commandLine(), "unknown kind '" + kind
                    + "'; describe acts on a job or a queue, e.g. muster describe job NAME");
        }
        queueKind = QUEUE_KINDS.contains(kind);
    }

    @Parameters(index = "1", paramLabel = "NAME", description = "The object's name.")
    void name(String name) {
        this.name = name;
    }

    @Option(names = "--manager-url", paramLabel = "URL", defaultValue = "${env:MUSTER_MANAGER_URL}",
            description = "describe job only: HTTP address of the Muster manager (its Actuator port), for the "
                    + "job's place in the scheduler's queue, asked with the kubeconfig's bearer token (default: "
                    + "$MUSTER_MANAGER_URL; without it, why a job waits comes from its PodGroup's status).")
    URI managerUrl;
    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "table",
            description = "table (text for people), json or yaml (default: ${DEFAULT-VALUE}).")
    OutputFormat output;

    /**
     * What describe shows, as {@code -o json|yaml} writes it.
     *
     * @param job              the Job
     * @param podGroup         its PodGroup; null before the Job controller created it
     * @param events           events of the Job, its PodGroup and its pods, oldest first
     * @param waiting          why it waits; null for a Job that runs or has finished
     * @param queueUnavailable why the manager's queue could not be read; null when it was, or not asked
     */
    record JobDescription(Job job, PodGroup podGroup, List<Event> events, Waiting waiting, String queueUnavailable) {
    }

    @Override
    public Integer call() throws InterruptedException {
        try (KubernetesClient client = cluster.connect()) {
            if (queueKind) {
                if (spec.commandLine().getParseResult().hasMatchedOption("--manager-url")) {
                    throw new ParameterException(spec.commandLine(), "--manager-url applies to describe job only");
                }
                QueueDescription description = QueueDescription.of(client, name);
                if (output == OutputFormat.table) {
                    description.print(cli.out, cli.clock.instant());
                } else {
                    output.write(cli.out, client.getKubernetesSerialization(), description);
                }
                return 0;
            }
            JobDescription description = describe(client);
            if (output == OutputFormat.table) {
                print(description, cli.out);
            } else {
                output.write(cli.out, client.getKubernetesSerialization(), description);
            }
            return 0;
        }
    }

    private JobDescription describe(KubernetesClient client) throws InterruptedException {
        Job j = JobRef.get(client, cluster.namespace(client), name);
        String namespace = j.getMetadata().getNamespace();
        String groupName = JobDefaults.podGroupName(j.getMetadata().getName());
        PodGroup group = client.resources(PodGroup.class).inNamespace(namespace).withName(groupName).get();
        Map<String, String> podUids = client.pods().inNamespace(namespace)
                .withLabel(MusterLabels.JOB_NAME, j.getMetadata().getName()).list().getItems().stream()
                .collect(Collectors.toMap(p -> p.getMetadata().getName(), p -> uidOf(p.getMetadata().getUid())));
        String groupUid = group == null ? null : group.getMetadata().getUid();
        List<Event> events = client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(e -> about(e, "Job", j.getMetadata().getName(), j.getMetadata().getUid())
                        || group != null && about(e, "PodGroup", groupName, groupUid)
                        || e.getInvolvedObject() != null && "Pod".equals(e.getInvolvedObject().getKind())
                        && podUids.containsKey(e.getInvolvedObject().getName())
                        && about(e, "Pod", e.getInvolvedObject().getName(), podUids.get(e.getInvolvedObject().getName())))
                .sorted(Comparator.comparing(DescribeCommand::time).thenComparing(e -> e.getMetadata().getName())).toList();
        if (!Waiting.applies(j)) {
            return new JobDescription(j, group, events, null, null);
        }
        SchedulerQueue queue = null;
        String queueUnavailable = null;
        if (managerUrl != null) {
            try {
                queue = ManagerQueue.fetch(managerUrl, ManagerQueue.bearerToken(client.getConfiguration()),
                        client.getKubernetesSerialization());
                if (!queue.scheduling()) {
                    queueUnavailable = "the manager at " + managerUrl + " does not schedule (a standby, or starting)";
                    queue = null;
                }
            } catch (IOException e) {
                queueUnavailable = "the manager at " + managerUrl + " did not answer: " + e;
            }
        }
        return new JobDescription(j, group, events, Waiting.of(j, group, neverFits(client, j), queue), queueUnavailable);
    }

    /** Empty when nodes cannot be listed (a user allowed only their namespace): then it cannot be told. */
    private static List<String> neverFits(KubernetesClient client, Job job) {
        List<Node> nodes;
        try {
            nodes = client.nodes().list().getItems();
        } catch (KubernetesClientException e) {
            return List.of();
        }
        return NeverFits.reasons(JobDefaults.tasksOf(job.getSpec()), nodes);
    }

    /**
     * Whether the event is about this object, not an earlier one of the same kind and name (a Job deleted and
     * submitted again, with its PodGroup and pods): an event that names a uid must name this object's.
     */
    private static boolean about(Event event, String kind, String name, String uid) {
        if (event.getInvolvedObject() == null || !kind.equals(event.getInvolvedObject().getKind())
                || !name.equals(event.getInvolvedObject().getName())) {
            return false;
        }
        String eventUid = event.getInvolvedObject().getUid();
        return eventUid == null || eventUid.isEmpty() || uid == null || uid.isEmpty() || eventUid.equals(uid);
    }

    private static String uidOf(String uid) {
        return uid == null ? "" : uid;
    }

    /**
     * When the event last happened: the latest of its times. core/v1 writes seconds in {@code lastTimestamp},
     * events.k8s.io microseconds in {@code eventTime}; the finer one orders events of the same second.
     */
    static Instant time(Event event) {
        return Stream.of(event.getLastTimestamp(), event.getEventTime() == null ? null : event.getEventTime().getTime(),
                        event.getFirstTimestamp(), event.getMetadata().getCreationTimestamp())
                .filter(t -> t != null && !t.isEmpty()).map(KubeTime::parse)
                .max(Comparator.naturalOrder()).orElse(Instant.EPOCH);
    }

    private void print(JobDescription d, PrintWriter out) {
        Job j = d.job();
        Instant now = cli.clock.instant();
        JobState state = JobsCommand.state(j);
        field(out, "Name", j.getMetadata().getName());
        field(out, "Namespace", j.getMetadata().getNamespace());
        field(out, "Queue", JobsCommand.queue(j));
        field(out, "Scheduler", JobDefaults.schedulerName(j.getSpec()));
        field(out, "Priority class", orNone(j.getSpec().getPriorityClassName()));
        field(out, "Min available", JobDefaults.minAvailable(j.getSpec())
                + (JobDefaults.elastic(j.getSpec()) ? " (elastic: task minimums not enforced)" : ""));
        field(out, "Suspend", String.valueOf(Boolean.TRUE.equals(j.getSpec().getSuspend())));
        field(out, "Phase", JobsCommand.phase(j) + (state == null || state.getReason() == null ? "" : " (" + state.getReason() + ")"));
        if (state != null && state.getMessage() != null) {
            field(out, "Message", state.getMessage());
        }
        field(out, "Age", Ages.since(j.getMetadata().getCreationTimestamp(), now));

        out.println("Tasks:");
        Table tasks = new Table(List.of("NAME", "REPLICAS", "MIN", "REQUESTS PER POD", "PENDING", "RUNNING", "SUCCEEDED", "FAILED"));
        for (TaskSpec task : JobDefaults.tasksOf(j.getSpec())) {
            List<String> row = new ArrayList<>(List.of(task.getName(), String.valueOf(JobDefaults.replicas(task)),
                    String.valueOf(JobDefaults.enforcedMinAvailable(j.getSpec(), task)), requests(task)));
            for (PodPhase phase : POD_PHASES) {
                row.add(String.valueOf(JobsCommand.taskCount(j, task, phase)));
            }
            tasks.row(row);
        }
        tasks.print(out, "  ");

        out.println("Phase history:");
        List<JobCondition> history = j.getStatus() == null ? List.of() : j.getStatus().getConditions();
        if (history.isEmpty()) {
            out.println("  " + JobsCommand.NONE);
        } else {
            Table phases = new Table(List.of("AGE", "PHASE", "REASON"));
            for (int i = 0; i < history.size(); i++) {
                JobCondition c = history.get(i);
                // Only the latest transition keeps its reason: the Job's state holds it.
                boolean latest = i == history.size() - 1 && state != null && c.getStatus() == state.getPhase();
                phases.row(List.of(Ages.since(c.getLastTransitionTime(), now), String.valueOf(c.getStatus()),
                        latest && state.getReason() != null ? state.getReason() : ""));
            }
            phases.print(out, "  ");
        }

        if (d.podGroup() == null) {
            out.println("PodGroup: " + JobsCommand.NONE);
        } else {
            PodGroup g = d.podGroup();
            var status = g.getStatus();
            out.println("PodGroup " + g.getMetadata().getName() + ": "
                    + (status == null || status.getPhase() == null ? JobsCommand.NONE : status.getPhase().name())
                    + ", min member " + PodGroupDefaults.minMember(g.getSpec())
                    + (status == null ? "" : ", running " + status.getRunning() + ", succeeded " + status.getSucceeded()
                    + ", failed " + status.getFailed()));
            if (status != null && !status.getConditions().isEmpty()) {
                Table conditions = new Table(List.of("TYPE", "STATUS", "REASON", "AGE", "MESSAGE"));
                for (PodGroupCondition c : status.getConditions()) {
                    conditions.row(List.of(c.getType(), c.getStatus(), orNone(c.getReason()),
                            Ages.since(c.getLastTransitionTime(), now), orNone(c.getMessage())));
                }
                conditions.print(out, "  ");
            }
        }

        out.println("Events:");
        if (d.events().isEmpty()) {
            out.println("  " + JobsCommand.NONE);
        } else {
            Table events = new Table(List.of("AGE", "TYPE", "REASON", "OBJECT", "MESSAGE"));
            for (Event e : d.events()) {
                events.row(List.of(Ages.of(Duration.between(time(e), now)), orNone(e.getType()),
                        orNone(e.getReason()), e.getInvolvedObject().getKind() + "/" + e.getInvolvedObject().getName(),
                        orNone(e.getMessage()).strip()));
            }
            events.print(out, "  ");
        }

        if (d.waiting() != null) {
            out.println("Why it waits:");
            d.waiting().lines(j.getMetadata().getName()).forEach(line -> out.println("  " + line));
            if (d.queueUnavailable() != null) {
                out.println("  (" + d.queueUnavailable() + ")");
            }
        }
    }

    /** One pod's requests, e.g. {@code cpu=2,memory=8Gi,nvidia.com/gpu=4}. */
    private static String requests(TaskSpec task) {
        if (task.getTemplate() == null || task.getTemplate().getSpec() == null) {
            return JobsCommand.NONE;
        }
        String requests = EffectiveRequests.amounts(task.getTemplate().getSpec()).entrySet().stream()
                .map(e -> e.getKey() + "=" + QuantityFormat.of(e.getKey(), e.getValue()))
                .collect(Collectors.joining(","));
        return requests.isEmpty() ? JobsCommand.NONE : requests;
    }

    /** A {@code Label:   value} line, values aligned. */
    static void field(PrintWriter out, String label, String value) {
        out.printf("%-16s%s%n", label + ":", value);
    }

    /** The value, {@value JobsCommand#NONE} when empty. */
    static String orNone(String value) {
        return value == null || value.isEmpty() ? JobsCommand.NONE : value;
    }

    /** Completion candidates for the kind: the names shell completion offers. */
    static final class Kinds implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return List.of("job", "queue").iterator();
        }
    }
}
