package dev.muster.local.autoscaler;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ScaleUpPlannerTest {
    private static final NodeGroup GPU8 = NodeGroup.parse("gpu8=0..4:cpu=32,memory=256Gi,nvidia.com/gpu=8");
    private static final NodeGroup GPU4 = NodeGroup.parse("gpu4=0..10:cpu=16,memory=128Gi,nvidia.com/gpu=4");
    private static final NodeGroup CPU = NodeGroup.parse("cpu=0..10:cpu=16,memory=64Gi,label.pool=cpu");

    private static ScaleUpPlanner.PodDemand gpus(String id, int gpus) {
        return new ScaleUpPlanner.PodDemand(id, Map.of("cpu", BigDecimal.ONE, "nvidia.com/gpu", BigDecimal.valueOf(gpus)),
                Map.of());
    }

    private static List<ScaleUpPlanner.PodDemand> gang(int pods, int gpusEach) {
        return java.util.stream.IntStream.range(0, pods).mapToObj(i -> gpus("w-" + i, gpusEach)).toList();
    }

    @Test
    void anAtomicGangUsesTheFreeRoomFirstAndAddsOnlyTheNodesForTheRest() {
        List<ScaleUpPlanner.Room> rooms = List.of(ScaleUpPlanner.Room.template(GPU8, "gpu8-0", false),
                ScaleUpPlanner.Room.template(GPU8, "gpu8-1", false));
        ScaleUpPlanner.Decision decision = ScaleUpPlanner.atomic(gang(4, 8), rooms, List.of(GPU8), Map.of("gpu8", 2));
        assertThat(decision).isEqualTo(new ScaleUpPlanner.ScaleUp(GPU8, 2));
    }

    @Test
    void anAtomicGangThatFitsTheRoomThereIsNeedsNoScaleUp() {
        List<ScaleUpPlanner.Room> rooms = List.of(ScaleUpPlanner.Room.template(GPU8, "gpu8-0", false));
        assertThat(ScaleUpPlanner.atomic(gang(2, 4), rooms, List.of(GPU8), Map.of("gpu8", 1)))
                .isInstanceOf(ScaleUpPlanner.Fits.class);
    }

    @Test
    void theGroupNeedingFewestNodesWinsAndGroupsThatCannotHoldAPodAreSkipped() {
        assertThat(ScaleUpPlanner.atomic(gang(4, 4), List.of(), List.of(GPU4, GPU8, CPU), Map.of()))
                .isEqualTo(new ScaleUpPlanner.ScaleUp(GPU8, 2));
        assertThat(ScaleUpPlanner.atomic(gang(2, 8), List.of(), List.of(GPU4, CPU), Map.of()))
                .isInstanceOfSatisfying(ScaleUpPlanner.NoScaleUp.class, none -> assertThat(none.message())
                        .contains("2 of 2 pods do not fit")
                        .contains("pod w-0 does not fit a node of group cpu")
                        .contains("pod w-0 does not fit a node of group gpu4"));
    }

    @Test
    void anAtomicGangIsAllOrNothingAtTheGroupsMaximum() {
        assertThat(ScaleUpPlanner.atomic(gang(5, 8), List.of(), List.of(GPU8), Map.of("gpu8", 1)))
                .isInstanceOfSatisfying(ScaleUpPlanner.NoScaleUp.class, none -> assertThat(none.message())
                        .contains("group gpu8 would need 5 more nodes but has 1 of at most 4"));
    }

    @Test
    void nodeSelectorsChooseTheGroupWhoseLabelsMatch() {
        ScaleUpPlanner.PodDemand onCpuPool = new ScaleUpPlanner.PodDemand("p", Map.of("cpu", BigDecimal.ONE),
                Map.of("pool", "cpu"));
        assertThat(ScaleUpPlanner.atomic(List.of(onCpuPool), List.of(), List.of(GPU4, CPU), Map.of()))
                .isEqualTo(new ScaleUpPlanner.ScaleUp(CPU, 1));
    }

    @Test
    void unschedulablePodsGrowTheGroupThatPlacesMostOfThemEvenWhenSomeStayWithoutRoom() {
        List<ScaleUpPlanner.PodDemand> pods = List.of(gpus("a", 8), gpus("b", 8), gpus("c", 8));
        assertThat(ScaleUpPlanner.pending(pods, List.of(), List.of(GPU8), Map.of("gpu8", 2)))
                .isEqualTo(new ScaleUpPlanner.ScaleUp(GPU8, 2));
        assertThat(ScaleUpPlanner.pending(pods, List.of(), List.of(GPU8), Map.of("gpu8", 4)))
                .isInstanceOf(ScaleUpPlanner.NoScaleUp.class);
    }

    @Test
    void unschedulablePodsThatFitUpcomingNodesNeedNoMore() {
        List<ScaleUpPlanner.Room> upcoming = List.of(ScaleUpPlanner.Room.template(GPU8, "gpu8-0", true));
        assertThat(ScaleUpPlanner.pending(List.of(gpus("a", 8)), upcoming, List.of(GPU8), Map.of("gpu8", 1)))
                .isInstanceOf(ScaleUpPlanner.Fits.class);
    }

    @Test
    void aRoomHoldsNoMorePodsThanItsPodSlots() {
        NodeGroup tiny = NodeGroup.parse("tiny=0..1:cpu=64,memory=64Gi,pods=1");
        ScaleUpPlanner.Placement placement = ScaleUpPlanner.place(gang(2, 0),
                List.of(ScaleUpPlanner.Room.template(tiny, "tiny-0", false)));
        assertThat(placement.placed()).containsOnlyKeys("w-0");
        assertThat(placement.unplaced()).extracting(ScaleUpPlanner.PodDemand::id).containsExactly("w-1");
    }
}
