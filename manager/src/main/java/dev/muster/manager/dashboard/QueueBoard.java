package dev.muster.manager.dashboard;

import dev.muster.api.batch.v1alpha1.JobOwnership;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.api.scheduling.v1alpha1.QueueAncestry;
import dev.muster.api.scheduling.v1alpha1.QueueCondition;
import dev.muster.api.scheduling.v1alpha1.QueueDefaults;
import dev.muster.api.scheduling.v1alpha1.QueueSpec;
import dev.muster.api.scheduling.v1alpha1.QueueStatus;
import dev.muster.manager.dashboard.Views.Condition;
import dev.muster.manager.dashboard.Views.PendingGang;
import dev.muster.manager.dashboard.Views.QueueResource;
import dev.muster.manager.dashboard.Views.QueueRow;
import dev.muster.manager.dashboard.Views.QueuesView;
import dev.muster.scheduler.QueuedGang;
import io.fabric8.kubernetes.api.model.Quantity;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The queues page, a pure function of the Queues, the PodGroups, the scheduler's waiting gangs and the
 * cluster's allocatable: each queue in tree order with its amounts per resource and the gangs of it that
 * have not started.
 */
final class QueueBoard {
    private static final Set<PodGroupPhase> NOT_STARTED = Set.of(PodGroupPhase.Pending, PodGroupPhase.Inqueue);

    private QueueBoard() {
    }

    /** A queue at its place in the tree: 0 at the top, 1 for a child, and so on. */
    record Placed(Queue queue, int depth) {
    }

    /**
     * @param queues     every Queue
     * @param podGroups  every PodGroup
     * @param waiting    the scheduler's waiting gangs, in its order
     * @param allocatable the cluster's allocatable per resource ({@link Allocation#RESOURCES})
     */
    static QueuesView of(List<Queue> queues, List<PodGroup> podGroups, List<QueuedGang> waiting,
                         Map<String, Double> allocatable) {
        Map<String, QueuedGang> queued = new HashMap<>();
        waiting.stream().filter(QueuedGang::podGroup).forEach(g -> queued.put(g.namespace() + "/" + g.name(), g));
        Map<String, List<PendingGang>> pendingByQueue = new HashMap<>();
        for (PodGroup group : podGroups) {
            PodGroupPhase phase = group.getStatus() == null || group.getStatus().getPhase() == null
                    ? PodGroupPhase.Pending : group.getStatus().getPhase();
            if (NOT_STARTED.contains(phase)) {
                QueuedGang gang = queued.get(group.getMetadata().getNamespace() + "/" + group.getMetadata().getName());
                pendingByQueue.computeIfAbsent(queueOf(group), q -> new ArrayList<>()).add(new PendingGang(
                        group.getMetadata().getNamespace(), group.getMetadata().getName(), JobOwnership.controllingJob(group).isPresent(), phase.name(),
                        gang == null ? null : gang.position(), gang == null ? null : gang.state(),
                        gang == null ? null : gang.message()));
            }
        }
        Comparator<PendingGang> order = Comparator.comparing(PendingGang::position, Comparator.nullsLast(Comparator.naturalOrder()))
                .thenComparing(PendingGang::namespace).thenComparing(PendingGang::name);
        Map<String, Double> scale = new LinkedHashMap<>(allocatable);
        List<QueueRow> rows = new ArrayList<>();
        for (Placed placed : treeOrder(queues)) {
            Queue queue = placed.queue();
            QueueSpec spec = queue.getSpec();
            QueueStatus status = queue.getStatus() == null ? new QueueStatus() : queue.getStatus();
            List<QueueResource> resources = resources(spec, status);
            // Demand is no bar: a queue asking for more than the cluster has does not shrink the others' bars.
            resources.forEach(r -> Stream.of(r.allocated(), r.fairShare(), r.guarantee(), r.limit())
                    .filter(v -> v != null).forEach(v -> scale.merge(r.resource(), v, Math::max)));
            String name = queue.getMetadata().getName();
            rows.add(new QueueRow(name, QueueDefaults.parent(spec), placed.depth(), QueueDefaults.weight(spec),
                    QueueDefaults.state(spec), invalid(status), status.getPending(),
                    status.getRunning(), resources,
                    pendingByQueue.getOrDefault(name, List.of()).stream().sorted(order).toList()));
        }
        return new QueuesView(rows, scale);
    }

    /**
     * The queues depth first with their depth: the tops of the tree (no parent, or a parent that does not
     * exist) by name, each followed by its children by name. Queues in a cycle, which no top reaches, come
     * last at depth 0; their {@code Valid} condition says what is wrong.
     */
    static List<Placed> treeOrder(List<Queue> queues) {
        Map<String, Queue> byName = new TreeMap<>();
        Map<String, QueueSpec> specs = new HashMap<>();
        queues.forEach(q -> {
            byName.put(q.getMetadata().getName(), q);
            specs.put(q.getMetadata().getName(), q.getSpec());
        });
        Map<String, List<String>> children = QueueAncestry.children(specs);
        List<Placed> ordered = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        byName.values().stream().filter(q -> {
            String parent = QueueDefaults.parent(q.getSpec());
            return parent == null || !byName.containsKey(parent);
        }).forEach(top -> visit(top.getMetadata().getName(), 0, byName, children, ordered, seen));
        byName.values().stream().filter(q -> !seen.contains(q.getMetadata().getName()))
                .forEach(q -> ordered.add(new Placed(q, 0)));
        return ordered;
    }

    private static void visit(String name, int depth, Map<String, Queue> byName, Map<String, List<String>> children,
                              List<Placed> ordered, Set<String> seen) {
        if (!seen.add(name)) {
            return;
        }
        ordered.add(new Placed(byName.get(name), depth));
        children.getOrDefault(name, List.of()).forEach(child -> visit(child, depth + 1, byName, children, ordered, seen));
    }

    /** The PodGroup's queue: {@code spec.queue}, {@link Queue#DEFAULT} when it names none. */
    private static String queueOf(PodGroup group) {
        return QueueDefaults.queueOf(group.getSpec() == null ? null : group.getSpec().getQueue());
    }

    /** The shown resources first in {@link Allocation#RESOURCES} order, then any other by name. */
    private static List<QueueResource> resources(@Nullable QueueSpec spec, QueueStatus status) {
        Map<String, Quantity> guarantee = QueueDefaults.guarantee(spec);
        Map<String, Quantity> limit = QueueDefaults.limit(spec);
        List<Map<String, Quantity>> all = Stream.of(status.getAllocated(), status.getFairShare(), guarantee, limit,
                status.getDemand()).filter(m -> m != null).toList();
        List<String> names = all.stream().flatMap(m -> m.keySet().stream()).distinct()
                .sorted(Comparator.comparing((String r) -> Allocation.RESOURCES.contains(r)
                        ? Allocation.RESOURCES.indexOf(r) : Allocation.RESOURCES.size()).thenComparing(Function.identity()))
                .toList();
        return names.stream().map(r -> new QueueResource(r, amount(status.getAllocated(), r), amount(status.getFairShare(), r),
                amount(guarantee, r), amount(limit, r), amount(status.getDemand(), r))).toList();
    }

    private static @Nullable Double amount(@Nullable Map<String, Quantity> amounts, String resource) {
        Quantity quantity = amounts == null ? null : amounts.get(resource);
        return quantity == null ? null : quantity.getNumericalAmount().doubleValue();
    }

    private static @Nullable Condition invalid(QueueStatus status) {
        return status.getConditions() == null ? null : status.getConditions().stream()
                .filter(c -> QueueCondition.VALID.equals(c.getType()) && !"True".equals(c.getStatus()))
                .map(c -> new Condition(c.getType(), c.getStatus(), c.getReason(), c.getMessage(), c.getLastTransitionTime()))
                .findFirst().orElse(null);
    }
}
