package dev.muster.cli;

import dev.muster.api.QuantityFormat;
import dev.muster.api.batch.v1alpha1.GoDuration;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.api.scheduling.v1alpha1.QueueCondition;
import dev.muster.api.scheduling.v1alpha1.QueueDefaults;
import dev.muster.api.scheduling.v1alpha1.QueuePreemptionSpec;
import dev.muster.api.scheduling.v1alpha1.QueueSpec;
import dev.muster.api.scheduling.v1alpha1.QueueStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * What {@code muster describe queue NAME} shows, as {@code -o json|yaml} writes it.
 *
 * @param queue    the Queue
 * @param children the queues whose parent it is, by name
 * @param jobs     the Jobs in it that have not finished (Pending, Running and the phases between), in all
 *                 namespaces, by namespace and name
 */
record QueueDescription(Queue queue, List<String> children, List<Job> jobs) {

    /** The queue {@code name} with its children and unfinished jobs; a {@link CliException} when it does not exist. */
    static QueueDescription of(KubernetesClient client, String name) {
        List<Queue> queues = client.resources(Queue.class).list().getItems();
        Queue queue = queues.stream().filter(q -> name.equals(q.getMetadata().getName())).findFirst()
                .orElseThrow(() -> new CliException("queue " + name + " not found"));
        List<String> children = queues.stream().filter(q -> name.equals(QueuesCommand.parent(q.getSpec())))
                .map(q -> q.getMetadata().getName()).sorted().toList();
        List<Job> jobs = client.resources(Job.class).inAnyNamespace().list().getItems().stream()
                .filter(job -> name.equals(JobsCommand.queue(job)) && !finished(job))
                .sorted(Comparator.comparing((Job job) -> job.getMetadata().getNamespace())
                        .thenComparing(job -> job.getMetadata().getName()))
                .toList();
        return new QueueDescription(queue, children, jobs);
    }

    private static boolean finished(Job job) {
        var state = JobsCommand.state(job);
        JobPhase phase = state == null ? null : state.getPhase();
        return phase != null && phase.isFinished();
    }

    /** Prints the description for people; ages against {@code now}. */
    void print(PrintWriter out, Instant now) {
        QueueSpec spec = queue.getSpec();
        QueueStatus status = queue.getStatus() == null ? new QueueStatus() : queue.getStatus();
        DescribeCommand.field(out, "Name", queue.getMetadata().getName());
        DescribeCommand.field(out, "Parent", QueuesCommand.parent(spec));
        DescribeCommand.field(out, "Children", children.isEmpty() ? JobsCommand.NONE : String.join(", ", children));
        DescribeCommand.field(out, "Weight", String.valueOf(QueueDefaults.weight(spec)));
        DescribeCommand.field(out, "State", QueueDefaults.state(spec));
        DescribeCommand.field(out, "Preemption", preemption(spec));
        DescribeCommand.field(out, "Pending gangs", QueuesCommand.count(status.getPending()));
        DescribeCommand.field(out, "Running gangs", QueuesCommand.count(status.getRunning()));
        DescribeCommand.field(out, "Age", Ages.since(queue.getMetadata().getCreationTimestamp(), now));

        out.println("Resources:");
        Map<String, Map<String, Quantity>> columns = new LinkedHashMap<>();
        columns.put("GUARANTEE", QueueDefaults.guarantee(spec));
        columns.put("LIMIT", QueueDefaults.limit(spec));
        columns.put("ALLOCATED", status.getAllocated());
        columns.put("FAIR SHARE", status.getFairShare());
        columns.put("DEMAND", status.getDemand());
        TreeSet<String> resources = new TreeSet<>();
        columns.values().stream().filter(Objects::nonNull).forEach(amounts -> resources.addAll(amounts.keySet()));
        if (resources.isEmpty()) {
            out.println("  " + JobsCommand.NONE);
        } else {
            Table table = new Table(Stream.concat(Stream.of("RESOURCE"), columns.keySet().stream()).toList());
            for (String resource : resources) {
                table.row(Stream.concat(Stream.of(resource), columns.values().stream()
                        .map(amounts -> amount(amounts, resource))).toList());
            }
            table.print(out, "  ");
        }

        out.println("Conditions:");
        List<QueueCondition> conditions = status.getConditions() == null ? List.of() : status.getConditions();
        if (conditions.isEmpty()) {
            out.println("  " + JobsCommand.NONE);
        } else {
            Table table = new Table(List.of("TYPE", "STATUS", "REASON", "AGE", "MESSAGE"));
            for (QueueCondition c : conditions) {
                table.row(List.of(DescribeCommand.orNone(c.getType()), DescribeCommand.orNone(c.getStatus()),
                        DescribeCommand.orNone(c.getReason()), c.getLastTransitionTime() == null ? JobsCommand.NONE
                                : Ages.since(c.getLastTransitionTime(), now), DescribeCommand.orNone(c.getMessage())));
            }
            table.print(out, "  ");
        }

        out.println("Jobs:");
        if (jobs.isEmpty()) {
            out.println("  " + JobsCommand.NONE);
        } else {
            Table table = new Table(List.of("NAMESPACE", "NAME", "PHASE", "REASON", "TASKS", "AGE"));
            for (Job job : jobs) {
                var state = JobsCommand.state(job);
                table.row(List.of(job.getMetadata().getNamespace(), job.getMetadata().getName(), JobsCommand.phase(job),
                        state == null || state.getReason() == null ? JobsCommand.NONE : state.getReason(),
                        JobsCommand.tasks(job), Ages.since(job.getMetadata().getCreationTimestamp(), now)));
            }
            table.print(out, "  ");
        }
    }

    /** E.g. {@code withinQueue LowerPriority, reclaim after 30s}, defaults filled in. */
    private static String preemption(QueueSpec spec) {
        String within = QueueDefaults.preemptsWithinQueue(spec) ? QueuePreemptionSpec.LOWER_PRIORITY : QueuePreemptionSpec.NEVER;
        QueuePreemptionSpec preemption = spec == null ? null : spec.getPreemption();
        String delay = preemption == null || preemption.getReclaimDelay() == null
                ? GoDuration.format(QueueDefaults.RECLAIM_DELAY) : preemption.getReclaimDelay();
        return "withinQueue " + within + ", " + (QueueDefaults.reclaims(spec) ? "reclaim after " + delay : "no reclaim");
    }

    private static String amount(Map<String, Quantity> amounts, String resource) {
        Quantity quantity = amounts == null ? null : amounts.get(resource);
        return quantity == null ? "-" : QuantityFormat.of(resource, quantity.getNumericalAmount());
    }
}
