package dev.muster.manager.dashboard;

import dev.muster.api.PodNode;
import dev.muster.api.MusterLabels;
import dev.muster.api.PodGroupLabel;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobCondition;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.batch.v1alpha1.TaskState;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.manager.dashboard.Views.Condition;
import dev.muster.manager.dashboard.Views.JobDetail;
import dev.muster.manager.dashboard.Views.JobRow;
import dev.muster.manager.dashboard.Views.NodeRow;
import dev.muster.manager.dashboard.Views.PhaseChange;
import dev.muster.manager.dashboard.Views.PodRow;
import dev.muster.manager.dashboard.Views.QueueView;
import dev.muster.manager.dashboard.Views.QueuesView;
import dev.muster.manager.dashboard.Views.ResourceUse;
import dev.muster.manager.dashboard.Views.TaskCount;
import dev.muster.manager.endpoint.JobSummary;
import dev.muster.manager.endpoint.PodGroupSummary;
import dev.muster.manager.endpoint.QueueEndpoint;
import dev.muster.manager.security.NamespaceScope;
import dev.muster.support.informer.SharedInformers;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.cache.Store;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.security.Principal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The dashboard's data, read-only and from the shared informer caches (so a page that polls costs the API
 * server nothing) and the scheduler's queue as {@code /actuator/queue} shows it. Each answer shows the objects of
 * the namespaces its viewer may see ({@link NamespaceScope}); cluster totals (allocation per node and per queue)
 * are shown to every viewer.
 */
@RestController
@RequestMapping(DashboardPages.PATH + "api")
public class DashboardApi {
    private final Store<Job> jobs;
    private final Store<PodGroup> podGroups;
    private final Store<Pod> pods;
    private final Store<Node> nodes;
    private final Store<Queue> queues;
    private final QueueEndpoint queue;

    public DashboardApi(SharedInformers informers, QueueEndpoint queue) {
        this.jobs = informers.informer(Job.class).getStore();
        this.podGroups = informers.informer(PodGroup.class).getStore();
        this.pods = informers.informer(Pod.class).getStore();
        this.nodes = informers.informer(Node.class).getStore();
        this.queues = informers.informer(Queue.class).getStore();
        this.queue = queue;
    }

    /** {@code GET /dashboard/api/queue}: the scheduler's waiting gangs and the cluster's allocation per resource. */
    @GetMapping("/queue")
    public QueueView queue(Principal viewer) {
        Map<String, Double> allocatable = Allocation.zero();
        nodes.list().forEach(node -> Allocation.add(allocatable, Allocation.allocatable(node)));
        Map<String, Double> allocated = Allocation.zero();
        pods.list().stream().filter(PodNode::holdsRoom).forEach(pod -> Allocation.add(allocated, Allocation.requests(pod)));
        return new QueueView(queue.queue(NamespaceScope.of(viewer)), uses(allocated, allocatable));
    }

    /**
     * {@code GET /dashboard/api/queues}: every Queue in tree order with its amounts per resource, as its spec
     * and the scheduler's status give them, and its gangs that have not started.
     */
    @GetMapping("/queues")
    public QueuesView queues(Principal viewer) {
        NamespaceScope scope = NamespaceScope.of(viewer);
        Map<String, Double> allocatable = Allocation.zero();
        nodes.list().forEach(node -> Allocation.add(allocatable, Allocation.allocatable(node)));
        return QueueBoard.of(queues.list(), podGroups.list().stream()
                .filter(group -> scope.allows(group.getMetadata().getNamespace())).toList(),
                queue.queue(scope).gangs(), allocatable);
    }

    /** {@code GET /dashboard/api/jobs}: every Job, by namespace and name. */
    @GetMapping("/jobs")
    public List<JobRow> jobs(Principal viewer) {
        NamespaceScope scope = NamespaceScope.of(viewer);
        return jobs.list().stream().filter(job -> scope.allows(job.getMetadata().getNamespace()))
                .sorted(Comparator.comparing((Job job) -> job.getMetadata().getNamespace())
                        .thenComparing(job -> job.getMetadata().getName()))
                .map(DashboardApi::row).toList();
    }

    /**
     * {@code GET /dashboard/api/jobs/{namespace}/{name}}: one Job's page; 404 when the cache does not hold it or
     * the viewer may not see its namespace.
     */
    @GetMapping("/jobs/{namespace}/{name}")
    public ResponseEntity<JobDetail> job(@PathVariable String namespace, @PathVariable String name, Principal viewer) {
        NamespaceScope scope = NamespaceScope.of(viewer);
        Job job = scope.allows(namespace) ? jobs.getByKey(namespace + "/" + name) : null;
        if (job == null) {
            return ResponseEntity.notFound().build();
        }
        List<PhaseChange> phases = conditions(job).stream()
                .map(c -> new PhaseChange(c.getStatus().name(), c.getLastTransitionTime())).toList();
        List<PodRow> podRows = pods.list().stream()
                .filter(pod -> namespace.equals(pod.getMetadata().getNamespace())
                        && name.equals(label(pod, MusterLabels.JOB_NAME)))
                .sorted(Comparator.comparing(pod -> pod.getMetadata().getName()))
                .map(DashboardApi::podRow).toList();
        // The Job controller names a Job's PodGroup after the Job.
        PodGroup group = podGroups.getByKey(namespace + "/" + name);
        List<Condition> groupConditions = group == null || group.getStatus() == null
                || group.getStatus().getConditions() == null ? List.of()
                : group.getStatus().getConditions().stream().map(c -> new Condition(c.getType(), c.getStatus(),
                        c.getReason(), c.getMessage(), c.getLastTransitionTime())).toList();
        var queued = queue.queue(scope).gangs().stream()
                .filter(gang -> gang.podGroup() && namespace.equals(gang.namespace()) && name.equals(gang.name()))
                .findFirst().orElse(null);
        return ResponseEntity.ok(new JobDetail(row(job), phases, podRows,
                group == null ? null : PodGroupSummary.of(group), groupConditions, queued));
    }

    /**
     * {@code GET /dashboard/api/nodes}: every node's allocation per resource and the gangs on it that the viewer
     * may see, by name.
     */
    @GetMapping("/nodes")
    public List<NodeRow> nodes(Principal viewer) {
        NamespaceScope scope = NamespaceScope.of(viewer);
        Map<String, Map<String, Double>> allocated = new HashMap<>();
        Map<String, TreeSet<String>> gangs = new HashMap<>();
        for (Pod pod : pods.list()) {
            if (PodNode.holdsRoom(pod)) {
                String node = PodNode.of(pod).orElseThrow();
                Allocation.add(allocated.computeIfAbsent(node, n -> Allocation.zero()), Allocation.requests(pod));
                if (!scope.allows(pod.getMetadata().getNamespace())) {
                    continue;
                }
                gangs.computeIfAbsent(node, n -> new TreeSet<>()).add(pod.getMetadata().getNamespace() + "/"
                        + PodGroupLabel.groupName(pod).orElse(pod.getMetadata().getName()));
            }
        }
        return nodes.list().stream()
                .sorted(Comparator.comparing(node -> node.getMetadata().getName()))
                .map(node -> {
                    String name = node.getMetadata().getName();
                    return new NodeRow(name, uses(allocated.getOrDefault(name, Allocation.zero()),
                            Allocation.allocatable(node)), List.copyOf(gangs.getOrDefault(name, new TreeSet<>())));
                }).toList();
    }

    private static List<ResourceUse> uses(Map<String, Double> allocated, Map<String, Double> allocatable) {
        return Allocation.RESOURCES.stream()
                .map(resource -> new ResourceUse(resource, allocated.get(resource), allocatable.get(resource))).toList();
    }

    private static JobRow row(Job job) {
        List<TaskCount> tasks = new ArrayList<>();
        Map<String, TaskState> counts = job.getStatus() == null || job.getStatus().getTaskStatusCount() == null
                ? Map.of() : job.getStatus().getTaskStatusCount();
        if (job.getSpec() != null && job.getSpec().getTasks() != null) {
            for (TaskSpec task : job.getSpec().getTasks()) {
                TaskState state = counts.get(task.getName());
                tasks.add(new TaskCount(task.getName(), Objects.requireNonNullElse(task.getReplicas(), 1),
                        state == null || state.getPhase() == null ? Map.of() : new TreeMap<>(state.getPhase())));
            }
        }
        List<JobCondition> conditions = conditions(job);
        String started = conditions.stream().filter(c -> c.getStatus() == JobPhase.Running)
                .map(JobCondition::getLastTransitionTime).findFirst().orElse(null);
        JobCondition last = conditions.isEmpty() ? null : conditions.get(conditions.size() - 1);
        String finished = last != null && last.getStatus().isFinished() ? last.getLastTransitionTime() : null;
        return new JobRow(JobSummary.of(job), tasks, job.getMetadata().getCreationTimestamp(), started, finished);
    }

    /** The Job's phase changes that name a phase, oldest first. */
    private static List<JobCondition> conditions(Job job) {
        if (job.getStatus() == null || job.getStatus().getConditions() == null) {
            return List.of();
        }
        return job.getStatus().getConditions().stream().filter(c -> c.getStatus() != null).toList();
    }

    private static PodRow podRow(Pod pod) {
        var status = pod.getStatus();
        String finished = status == null || status.getContainerStatuses() == null ? null
                : status.getContainerStatuses().stream().map(DashboardApi::finishedAt).filter(Objects::nonNull)
                .max(Comparator.naturalOrder()).orElse(null);
        return new PodRow(pod.getMetadata().getName(), label(pod, MusterLabels.TASK_NAME), pod.getSpec().getNodeName(),
                status == null ? null : status.getPhase(), status == null ? null : status.getStartTime(), finished);
    }

    private static @Nullable String finishedAt(ContainerStatus status) {
        return status.getState() == null || status.getState().getTerminated() == null ? null
                : status.getState().getTerminated().getFinishedAt();
    }

    private static @Nullable String label(Pod pod, String key) {
        return pod.getMetadata().getLabels() == null ? null : pod.getMetadata().getLabels().get(key);
    }
}
