package dev.muster.manager.dashboard;

import dev.muster.manager.endpoint.JobSummary;
import dev.muster.manager.endpoint.PodGroupSummary;
import dev.muster.manager.endpoint.SchedulerQueue;
import dev.muster.scheduler.QueuedGang;
import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.Map;

/** The JSON the dashboard's pages read from {@link DashboardApi}; times are RFC 3339 as the API server writes them. */
public final class Views {
    private Views() {
    }

    /**
     * One resource summed over a set of nodes, or on one node.
     *
     * @param resource    {@code cpu} (cores), {@code memory} (bytes) or {@code nvidia.com/gpu}
     * @param allocated   requests of the bound, unfinished pods
     * @param allocatable the nodes' allocatable
     */
    public record ResourceUse(String resource, double allocated, double allocatable) {
    }

    /**
     * The queue page.
     *
     * @param queue   what {@code /actuator/queue} answers
     * @param cluster allocation against allocatable over all nodes, per resource
     */
    public record QueueView(SchedulerQueue queue, List<ResourceUse> cluster) {
    }

    /**
     * A task's pods.
     *
     * @param name     the task's name
     * @param replicas its {@code replicas}
     * @param phases   its pods by phase, from {@code status.taskStatusCount}
     */
    public record TaskCount(String name, int replicas, Map<String, Integer> phases) {
    }

    /**
     * A Job as the jobs page and the Gantt chart show it.
     *
     * @param summary  what {@code /actuator/jobs} answers for it
     * @param tasks    per-task pod counts
     * @param created  its creation time
     * @param started  when it first became Running; null if never
     * @param finished when it reached a finished phase; null while not finished
     */
    public record JobRow(JobSummary summary, List<TaskCount> tasks, String created, @Nullable String started,
                         @Nullable String finished) {
    }

    /**
     * An entry of a Job's {@code status.conditions}: it entered {@code phase} at {@code time}.
     *
     * @param phase the phase
     * @param time  when
     */
    public record PhaseChange(String phase, String time) {
    }

    /**
     * One of a Job's pods.
     *
     * @param name     the pod's name
     * @param task     its task
     * @param node     the node it is bound to; null while not bound
     * @param phase    its phase
     * @param started  when the kubelet started it; null before
     * @param finished when its last container terminated; null before
     */
    public record PodRow(String name, @Nullable String task, @Nullable String node, @Nullable String phase,
                         @Nullable String started, @Nullable String finished) {
    }

    /**
     * A PodGroup condition with its time.
     *
     * @param type    e.g. {@code Unschedulable}
     * @param status  {@code True}, {@code False} or {@code Unknown}
     * @param reason  one CamelCase word
     * @param message the explanation
     * @param time    its last transition
     */
    public record Condition(String type, String status, String reason, String message, String time) {
    }

    /**
     * A Job's page.
     *
     * @param job                its row
     * @param phases             its phase changes, oldest first
     * @param pods               its pods, by name
     * @param podGroup           its PodGroup; null before the controller created it
     * @param podGroupConditions the PodGroup's conditions
     * @param queued             its gang in the scheduler's queue; null when not waiting there
     */
    public record JobDetail(JobRow job, List<PhaseChange> phases, List<PodRow> pods, @Nullable PodGroupSummary podGroup,
                            List<Condition> podGroupConditions, @Nullable QueuedGang queued) {
    }

    /**
     * A node on the nodes page.
     *
     * @param name      the node's name
     * @param resources allocation against allocatable, per resource
     * @param gangs     the PodGroups ({@code namespace/name}) with pods holding room on it, or the pods
     *                  themselves for pods without a PodGroup
     */
    public record NodeRow(String name, List<ResourceUse> resources, List<String> gangs) {
    }

    /**
     * The queues page: every Queue as a tree and the scale of each resource's bars.
     *
     * @param queues the queues depth first, parents before their children, siblings by name
     * @param scale  per resource, the amount a full bar stands for: the cluster's allocatable, or more when a
     *               queue's amount is larger (a limit above the cluster's size)
     */
    public record QueuesView(List<QueueRow> queues, Map<String, Double> scale) {
    }

    /**
     * A Queue on the queues page: its spec, what the scheduler last wrote in its status, and its gangs that
     * have not started.
     *
     * @param name         the queue's name
     * @param parent       its parent; null at the top of the tree
     * @param depth        0 at the top of the tree, 1 for a child, and so on
     * @param weight       its effective weight
     * @param state        {@code Open} or {@code Closed}
     * @param invalid      its {@code Valid} condition when that is not {@code True}; null when it is, or not yet written
     * @param pending      {@code status.pending}; null before the scheduler writes it
     * @param running      {@code status.running}; null before the scheduler writes it
     * @param resources    per resource that the queue sets or is given, its amounts
     * @param pendingGangs its PodGroups that have not started, in the scheduler's order, then by namespace and name
     */
    public record QueueRow(String name, @Nullable String parent, int depth, int weight, String state,
                           @Nullable Condition invalid, @Nullable Integer pending, @Nullable Integer running,
                           List<QueueResource> resources, List<PendingGang> pendingGangs) {
    }

    /**
     * A queue's amounts of one resource, in the resource's base unit (cores, bytes, GPUs); null where unset.
     *
     * @param resource  e.g. {@code nvidia.com/gpu}
     * @param allocated {@code status.allocated}
     * @param fairShare {@code status.fairShare}
     * @param guarantee {@code spec.guarantee}
     * @param limit     {@code spec.limit}
     * @param demand    {@code status.demand}
     */
    public record QueueResource(String resource, @Nullable Double allocated, @Nullable Double fairShare,
                                @Nullable Double guarantee, @Nullable Double limit, @Nullable Double demand) {
    }

    /**
     * A PodGroup of a queue that has not started (phase Pending or Inqueue).
     *
     * @param namespace its namespace
     * @param name      its name, its Job's name for a Job's PodGroup
     * @param job       whether a Job owns it (so the Job's page shows it)
     * @param phase     its phase
     * @param position  its place in the scheduler's queue; null when the scheduler's queue does not hold it
     * @param state     the scheduler's one word on it, e.g. {@code NotEnoughResources}; null as for position
     * @param message   the scheduler's explanation; null as for position
     */
    public record PendingGang(String namespace, String name, boolean job, String phase, @Nullable Integer position,
                              @Nullable String state, @Nullable String message) {
    }
}
