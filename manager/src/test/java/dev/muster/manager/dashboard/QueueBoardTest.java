package dev.muster.manager.dashboard;

import dev.muster.api.batch.v1alpha1.validation.FieldError;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroupSpec;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.api.scheduling.v1alpha1.QueueCondition;
import dev.muster.api.scheduling.v1alpha1.QueueSpec;
import dev.muster.api.scheduling.v1alpha1.QueueStatus;
import dev.muster.manager.dashboard.Views.PendingGang;
import dev.muster.manager.dashboard.Views.QueueResource;
import dev.muster.manager.dashboard.Views.QueueRow;
import dev.muster.manager.dashboard.Views.QueuesView;
import dev.muster.scheduler.QueuedGang;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class QueueBoardTest {
    private static final String GPU = "nvidia.com/gpu";

    @Test
    void queuesComeDepthFirstParentsBeforeChildrenSiblingsByNameAndOrphansOrCyclesStillShow() {
        List<Queue> queues = List.of(queue("b-child", "a"), queue("a", null), queue("a-child", "a"),
                queue("grandchild", "a-child"), queue("orphan", "gone"), queue("x", "y"), queue("y", "x"));
        assertThat(QueueBoard.treeOrder(queues).stream().map(p -> p.queue().getMetadata().getName() + ":" + p.depth()))
                .containsExactly("a:0", "a-child:1", "grandchild:2", "b-child:1", "orphan:0", "x:0", "y:0");
    }

    @Test
    void aQueuesAmountsPerResourceComeFromItsSpecAndStatusAndScaleToTheClusterOrALargerAmount() {
        Queue research = queue("research", null);
        research.getSpec().setGuarantee(Map.of(GPU, new Quantity("4")));
        research.getSpec().setLimit(Map.of(GPU, new Quantity("16")));
        research.getSpec().setWeight(2);
        QueueStatus status = new QueueStatus();
        status.setAllocated(Map.of(GPU, new Quantity("8"), "cpu", new Quantity("500m")));
        status.setFairShare(Map.of(GPU, new Quantity("6")));
        status.setDemand(Map.of(GPU, new Quantity("40")));
        status.setPending(1);
        status.setRunning(2);
        research.setStatus(status);

        QueuesView view = QueueBoard.of(List.of(research), List.of(), List.of(), Map.of("cpu", 48.0, GPU, 12.0));

        QueueRow row = view.queues().get(0);
        assertThat(row.weight()).isEqualTo(2);
        assertThat(row.state()).isEqualTo("Open");
        assertThat(row.pending()).isEqualTo(1);
        assertThat(row.running()).isEqualTo(2);
        assertThat(row.invalid()).isNull();
        assertThat(row.resources()).containsExactly(
                new QueueResource("cpu", 0.5, null, null, null, null),
                new QueueResource(GPU, 8.0, 6.0, 4.0, 16.0, 40.0));
        // The limit is above the cluster's 12 GPUs; the demand, which has no bar, does not count.
        assertThat(view.scale()).containsEntry(GPU, 16.0).containsEntry("cpu", 48.0);
    }

    @Test
    void aQueueShowsItsGangsNotStartedInTheSchedulersOrderAndOnlyAFalseValidCondition() {
        Queue research = queue("research", null);
        research.getSpec().setState(QueueSpec.CLOSED);
        research.setStatus(new QueueStatus());
        research.getStatus().setConditions(List.of(QueueCondition.valid(List.of(new FieldError("spec.limit", "too big")))));
        Queue fine = queue(Queue.DEFAULT, null);
        fine.setStatus(new QueueStatus());
        fine.getStatus().setConditions(List.of(QueueCondition.valid(List.of())));
        List<PodGroup> groups = List.of(group("ns", "late", "research", PodGroupPhase.Pending),
                group("ns", "first", "research", PodGroupPhase.Inqueue), group("ns", "unseen", "research", null),
                group("ns", "running", "research", PodGroupPhase.Running), group("ns", "mine", null, PodGroupPhase.Pending));
        List<QueuedGang> waiting = List.of(new QueuedGang("ns", "first", true, 1, "Admitted", "room held", 0, 1, 0),
                new QueuedGang("ns", "late", true, 2, "NotEnoughResources", "0/3 nodes", 0, 1, 1));

        QueuesView view = QueueBoard.of(List.of(research, fine), groups, waiting, Map.of());

        QueueRow researchRow = view.queues().get(1);
        assertThat(researchRow.state()).isEqualTo("Closed");
        assertThat(researchRow.invalid().message()).isEqualTo("spec.limit: too big");
        assertThat(researchRow.pendingGangs()).containsExactly(
                new PendingGang("ns", "first", false, "Inqueue", 1, "Admitted", "room held"),
                new PendingGang("ns", "late", false, "Pending", 2, "NotEnoughResources", "0/3 nodes"),
                new PendingGang("ns", "unseen", false, "Pending", null, null, null));
        QueueRow defaultRow = view.queues().get(0);
        assertThat(defaultRow.invalid()).isNull();
        assertThat(defaultRow.pendingGangs()).extracting(PendingGang::name).containsExactly("mine");
    }

    private static Queue queue(String name, String parent) {
        Queue queue = new Queue();
        queue.setMetadata(new ObjectMetaBuilder().withName(name).build());
        queue.getSpec().setParent(parent);
        return queue;
    }

    private static PodGroup group(String namespace, String name, String queue, PodGroupPhase phase) {
        PodGroup group = new PodGroup();
        group.setMetadata(new ObjectMetaBuilder().withNamespace(namespace).withName(name).build());
        group.setSpec(new PodGroupSpec());
        group.getSpec().setQueue(queue);
        if (phase != null) {
            group.setStatus(new PodGroupStatus());
            group.getStatus().setPhase(phase);
        }
        return group;
    }
}
