package dev.muster.scheduler;

import dev.muster.scheduler.core.model.QueueInfo;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupSchedulingConstraints;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.api.scheduling.v1alpha1.PodGroupSpec;
import dev.muster.api.scheduling.v1alpha1.TopologyConstraint;
import dev.muster.scheduler.core.model.ClaimInfo;
import dev.muster.scheduler.core.model.GangTopology;
import dev.muster.scheduler.core.model.HostPort;
import dev.muster.scheduler.core.model.InterPodTerms;
import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.NodeSelectorRequirement;
import dev.muster.scheduler.core.model.NodeSelectorTerm;
import dev.muster.scheduler.core.model.PersistentVolumeInfo;
import dev.muster.scheduler.core.model.PlacementConstraints;
import dev.muster.scheduler.core.model.PodAffinityTerm;
import dev.muster.scheduler.core.model.PreferredTerm;
import dev.muster.scheduler.core.model.SpreadConstraint;
import dev.muster.scheduler.core.model.StorageClassInfo;
import dev.muster.scheduler.core.model.Taint;
import dev.muster.scheduler.core.model.Toleration;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TopologySelectorTermBuilder;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class KubeObjectsTest {

    @Test
    void readsTaintsAndEphemeralStorageOfANode() {
        Node node = new NodeBuilder().withNewMetadata().withName("n").endMetadata()
                .withNewSpec().addNewTaint().withKey("dedicated").withValue("infra").withEffect("NoSchedule").endTaint()
                .endSpec()
                .withNewStatus().addToAllocatable("cpu", new Quantity("4"))
                .addToAllocatable("ephemeral-storage", new Quantity("100Gi"))
                .addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build();

        NodeInfo info = KubeObjects.nodeInfo(node);

        assertThat(info.taints()).containsExactly(new Taint("dedicated", "infra", "NoSchedule"));
        assertThat(info.allocatable().get("ephemeral-storage")).isEqualTo(100L << 30);
    }

    @Test
    void readsNodeSelectorRequiredAndPreferredAffinityAndTolerations() {
        PodSpec spec = new PodSpecBuilder().withNodeSelector(Map.of("disk", "ssd"))
                .withNewAffinity().withNewNodeAffinity()
                .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewNodeSelectorTerm().addNewMatchExpression().withKey("zone").withOperator("In")
                .withValues("z1", "z2").endMatchExpression().endNodeSelectorTerm()
                .addNewNodeSelectorTerm().addNewMatchField().withKey("metadata.name").withOperator("NotIn")
                .withValues("bad").endMatchField().endNodeSelectorTerm()
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewPreferredDuringSchedulingIgnoredDuringExecution().withWeight(1).withNewPreference()
                .addNewMatchExpression().withKey("spot").withOperator("Exists").endMatchExpression().endPreference()
                .endPreferredDuringSchedulingIgnoredDuringExecution()
                .endNodeAffinity().endAffinity()
                .addNewToleration().withKey("dedicated").withOperator("Exists").withEffect("NoSchedule").endToleration()
                .build();

        PlacementConstraints constraints = KubeObjects.constraints(spec);

        assertThat(constraints.nodeSelector()).isEqualTo(Map.of("disk", "ssd"));
        assertThat(constraints.requiredAffinity()).hasSize(2);
        assertThat(constraints.requiredAffinity().get(0).matchExpressions()).containsExactly(
                new NodeSelectorRequirement("zone", NodeSelectorRequirement.Operator.In, Set.of("z1", "z2")));
        assertThat(constraints.requiredAffinity().get(1).matchFields()).containsExactly(
                new NodeSelectorRequirement("metadata.name", NodeSelectorRequirement.Operator.NotIn, Set.of("bad")));
        assertThat(constraints.tolerations()).containsExactly(new Toleration("dedicated", "Exists", null, "NoSchedule"));
        assertThat(constraints.preferredAffinity()).containsExactly(new PreferredTerm(1, new NodeSelectorTerm(
                List.of(new NodeSelectorRequirement("spot", NodeSelectorRequirement.Operator.Exists, List.of())),
                List.of())));
    }

    @Test
    void readsAPodsCreationTimeWhichOrdersAGangsMembersForPreemption() {
        Pod created = new PodBuilder().withNewMetadata().withNamespace("ns").withName("p")
                .withCreationTimestamp("2026-03-01T10:15:30Z").endMetadata().withNewSpec().endSpec().build();
        Pod unknown = new PodBuilder().withNewMetadata().withNamespace("ns").withName("q").endMetadata()
                .withNewSpec().endSpec().build();

        assertThat(KubeObjects.podInfo(created).createdAt()).isEqualTo(Instant.parse("2026-03-01T10:15:30Z"));
        assertThat(KubeObjects.podInfo(unknown).createdAt()).isNull();
    }

    @Test
    void aPodWithoutConstraintsSharesTheEmptyConstraints() {
        assertThat(KubeObjects.constraints(new PodSpecBuilder().build())).isSameAs(PlacementConstraints.NONE);
        assertThat(KubeObjects.constraints(new PodSpecBuilder().withTolerations(List.of()).build()))
                .isSameAs(PlacementConstraints.NONE);
    }

    @Test
    void readsRequiredInterPodTermsAsKubeSchedulerDoes() {
        PodSpec spec = new PodSpecBuilder().withNewAffinity()
                .withNewPodAntiAffinity().addNewRequiredDuringSchedulingIgnoredDuringExecution()
                .withNewLabelSelector().addToMatchLabels("app", "web").addNewMatchExpression().withKey("tier")
                .withOperator("NotIn").withValues("cache").endMatchExpression().endLabelSelector()
                .withMatchLabelKeys("version").withTopologyKey("kubernetes.io/hostname")
                .endRequiredDuringSchedulingIgnoredDuringExecution().endPodAntiAffinity()
                .withNewPodAffinity().addNewRequiredDuringSchedulingIgnoredDuringExecution()
                .withNewLabelSelector().addToMatchLabels("app", "db").endLabelSelector()
                .withNewNamespaceSelector().endNamespaceSelector().withTopologyKey("zone")
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewRequiredDuringSchedulingIgnoredDuringExecution()
                .withNamespaces("data").withNewLabelSelector().endLabelSelector().withTopologyKey("zone")
                .endRequiredDuringSchedulingIgnoredDuringExecution().endPodAffinity()
                .endAffinity()
                .addNewContainer().addNewPort().withContainerPort(80).withHostPort(8080).endPort()
                .addNewPort().withContainerPort(53).withProtocol("UDP").withHostIP("10.0.0.1").withHostPort(53).endPort()
                .addNewPort().withContainerPort(9090).endPort().endContainer()
                .build();

        InterPodTerms terms = KubeObjects.interPodTerms(spec, "ns", Map.of("app", "web", "version", "v2"));

        PodAffinityTerm anti = terms.antiAffinity().get(0);
        assertThat(anti.selector()).containsExactly(
                new NodeSelectorRequirement("app", NodeSelectorRequirement.Operator.In, Set.of("web")),
                new NodeSelectorRequirement("tier", NodeSelectorRequirement.Operator.NotIn, Set.of("cache")),
                new NodeSelectorRequirement("version", NodeSelectorRequirement.Operator.In, Set.of("v2")));
        assertThat(anti.namespaces()).containsExactly("ns");
        assertThat(anti.allNamespaces()).isFalse();
        assertThat(terms.affinity().get(0).allNamespaces()).isTrue();
        assertThat(terms.affinity().get(1).namespaces()).containsExactly("data");
        assertThat(terms.affinity().get(1).selector()).isEmpty();
        assertThat(terms.hostPorts()).containsExactly(new HostPort(null, "TCP", 8080), new HostPort("10.0.0.1", "UDP", 53));
    }

    @Test
    void readsPreferredInterPodTermsWithTheirWeights() {
        PodSpec spec = new PodSpecBuilder().withNewAffinity()
                .withNewPodAffinity().addNewPreferredDuringSchedulingIgnoredDuringExecution().withWeight(30)
                .withNewPodAffinityTerm().withTopologyKey("zone").withNewLabelSelector().addToMatchLabels("app", "db")
                .endLabelSelector().endPodAffinityTerm().endPreferredDuringSchedulingIgnoredDuringExecution()
                .endPodAffinity()
                .withNewPodAntiAffinity().addNewPreferredDuringSchedulingIgnoredDuringExecution().withWeight(5)
                .withNewPodAffinityTerm().withTopologyKey("kubernetes.io/hostname").withNewLabelSelector()
                .addToMatchLabels("app", "web").endLabelSelector().withNewNamespaceSelector().addToMatchLabels("t", "a")
                .endNamespaceSelector().endPodAffinityTerm().endPreferredDuringSchedulingIgnoredDuringExecution()
                .endPodAntiAffinity().endAffinity().build();

        InterPodTerms terms = KubeObjects.interPodTerms(spec, "ns", Map.of());

        assertThat(terms.preferredAffinity()).containsExactly(new dev.muster.scheduler.core.model.WeightedPodAffinityTerm(30,
                PodAffinityTerm.ofLabels(Map.of("app", "db"), "ns", "zone")));
        // A non-empty namespaceSelector selects the namespaces whose labels it matches, and no own namespace.
        assertThat(terms.preferredAntiAffinity()).containsExactly(new dev.muster.scheduler.core.model.WeightedPodAffinityTerm(5,
                new PodAffinityTerm(List.of(new NodeSelectorRequirement("app", NodeSelectorRequirement.Operator.In,
                        Set.of("web"))), Set.of(), false, List.of(new NodeSelectorRequirement("t",
                        NodeSelectorRequirement.Operator.In, Set.of("a"))), "kubernetes.io/hostname")));
        assertThat(KubeObjects.notEvaluated(spec)).isEmpty();
    }

    @Test
    void aPodWithoutInterPodTermsSharesTheEmptyTerms() {
        assertThat(KubeObjects.interPodTerms(new PodSpecBuilder().addNewContainer().endContainer().build(), "ns",
                Map.of())).isSameAs(InterPodTerms.NONE);
    }

    @Test
    void readsSpreadConstraintsWithKubeSchedulersDefaultsScheduleAnywayApart() {
        PodSpec spec = new PodSpecBuilder()
                .addNewTopologySpreadConstraint().withMaxSkew(1).withTopologyKey("zone").withWhenUnsatisfiable("DoNotSchedule")
                .withNewLabelSelector().addToMatchLabels("app", "web").endLabelSelector().withMatchLabelKeys("version")
                .endTopologySpreadConstraint()
                .addNewTopologySpreadConstraint().withMaxSkew(2).withTopologyKey("kubernetes.io/hostname")
                .withWhenUnsatisfiable("DoNotSchedule").withMinDomains(3).withNodeAffinityPolicy("Ignore")
                .withNodeTaintsPolicy("Honor").endTopologySpreadConstraint()
                .addNewTopologySpreadConstraint().withMaxSkew(1).withTopologyKey("zone")
                .withWhenUnsatisfiable("ScheduleAnyway").endTopologySpreadConstraint()
                .build();

        InterPodTerms terms = KubeObjects.interPodTerms(spec, "ns", Map.of("version", "v2"));

        assertThat(terms.spread()).containsExactly(
                new SpreadConstraint(1, "zone", List.of(
                        new NodeSelectorRequirement("app", NodeSelectorRequirement.Operator.In, Set.of("web")),
                        new NodeSelectorRequirement("version", NodeSelectorRequirement.Operator.In, Set.of("v2"))),
                        1, true, false),
                new SpreadConstraint(2, "kubernetes.io/hostname", null, 3, false, true));
        assertThat(terms.softSpread()).containsExactly(new SpreadConstraint(1, "zone", null, 1, true, false));
    }

    @Test
    void namesThePodSpecFieldsTheSchedulerDoesNotEvaluate() {
        PodSpec spec = new PodSpecBuilder().withNewAffinity()
                .withNewPodAntiAffinity().addNewPreferredDuringSchedulingIgnoredDuringExecution().withWeight(10)
                .withNewPodAffinityTerm().withTopologyKey("zone").endPodAffinityTerm()
                .endPreferredDuringSchedulingIgnoredDuringExecution().endPodAntiAffinity()
                .withNewPodAffinity().addNewRequiredDuringSchedulingIgnoredDuringExecution().withTopologyKey("zone")
                .withNewNamespaceSelector().addToMatchLabels("team", "a").endNamespaceSelector()
                .endRequiredDuringSchedulingIgnoredDuringExecution().endPodAffinity().endAffinity()
                .addNewTopologySpreadConstraint().withMaxSkew(1).withTopologyKey("zone")
                .withWhenUnsatisfiable("ScheduleAnyway").endTopologySpreadConstraint()
                .addNewVolume().withName("data").withNewPersistentVolumeClaim().withClaimName("data")
                .endPersistentVolumeClaim().endVolume()
                .addNewResourceClaim().withName("gpu").endResourceClaim()
                .build();

        // DRA claims are allocated, so every field of this spec is evaluated.
        assertThat(KubeObjects.notEvaluated(spec)).isEmpty();
        // Admission places a Job's pods before they exist: a named claim's topology is read, but an ephemeral
        // volume's claim is made with the pod.
        assertThat(KubeObjects.notEvaluatedInTemplate(spec)).isEmpty();
        assertThat(KubeObjects.persistentClaimNames(spec)).containsExactly("data");
        assertThat(KubeObjects.notEvaluatedInTemplate(new PodSpecBuilder().addNewVolume().withName("scratch")
                .withNewEphemeral().endEphemeral().endVolume().build())).containsExactly("spec.volumes[].ephemeral");
        assertThat(KubeObjects.notEvaluatedInTemplate(new PodSpecBuilder().addNewVolume().withName("tmp")
                .withNewEmptyDir().endEmptyDir().endVolume().build())).isEmpty();
        // Kubernetes 1.35's way into a gang, which 1.36 replaced with spec.schedulingGroup: said, not ignored.
        PodSpec joined135 = new PodSpecBuilder().build();
        joined135.setAdditionalProperty("workloadRef", Map.of("name", "training", "podGroup", "workers"));
        assertThat(KubeObjects.notEvaluated(joined135)).containsExactly("spec.workloadRef");
    }

    @Test
    void readsClaimsOfVolumesAndEphemeralVolumesAndTheTopologyOfVolumesAndClasses() {
        Pod pod = new PodBuilder().withNewMetadata().withName("p").withNamespace("ns").endMetadata().withNewSpec()
                .addNewVolume().withName("data").withNewPersistentVolumeClaim().withClaimName("claim").endPersistentVolumeClaim()
                .endVolume()
                .addNewVolume().withName("scratch").withNewEphemeral().endEphemeral().endVolume()
                .addNewVolume().withName("tmp").withNewEmptyDir().endEmptyDir().endVolume().endSpec().build();
        NodeSelectorTerm inB = new NodeSelectorTerm(List.of(new NodeSelectorRequirement("zone",
                NodeSelectorRequirement.Operator.In, Set.of("b"))), List.of());

        assertThat(KubeObjects.claimNames(pod)).containsExactly("claim", "p-scratch");
        assertThat(KubeObjects.claimInfo(new PersistentVolumeClaimBuilder().withNewMetadata().withName("claim")
                .withNamespace("ns").endMetadata().withNewSpec().withStorageClassName("").endSpec().build()))
                .isEqualTo(new ClaimInfo("ns", "claim", null, null));
        assertThat(KubeObjects.persistentVolumeInfo(new PersistentVolumeBuilder().withNewMetadata().withName("pv")
                .endMetadata().withNewSpec().withNewNodeAffinity().withNewRequired().addNewNodeSelectorTerm()
                .addNewMatchExpression().withKey("zone").withOperator("In").withValues("b").endMatchExpression()
                .endNodeSelectorTerm().endRequired().endNodeAffinity().endSpec().build()))
                .isEqualTo(new PersistentVolumeInfo("pv", List.of(inB)));
        assertThat(KubeObjects.storageClassInfo(new StorageClassBuilder().withNewMetadata().withName("late")
                .endMetadata().withVolumeBindingMode("WaitForFirstConsumer").addToAllowedTopologies(
                        new TopologySelectorTermBuilder().addNewMatchLabelExpression().withKey("zone").withValues("b")
                                .endMatchLabelExpression().build()).build()))
                .isEqualTo(new StorageClassInfo("late", true, List.of(inB)));
        assertThat(KubeObjects.storageClassInfo(new StorageClassBuilder().withNewMetadata().withName("default")
                .endMetadata().build())).isEqualTo(new StorageClassInfo("default", false, List.of()));
    }

    @Test
    void readsAPodGroupsTopologyLevelsInOrderRequiredUnlessPreferred() {
        PodGroupSpec spec = new PodGroupSpec();
        PodGroupSchedulingConstraints constraints = new PodGroupSchedulingConstraints();
        constraints.setTopology(List.of(new TopologyConstraint("rack"), new TopologyConstraint("zone")));
        spec.setSchedulingConstraints(constraints);

        assertThat(KubeObjects.topology(spec)).isEqualTo(new GangTopology(List.of("rack", "zone"), true));
        constraints.setTopologyPolicy(PodGroupSchedulingConstraints.PREFERRED);
        assertThat(KubeObjects.topology(spec)).isEqualTo(new GangTopology(List.of("rack", "zone"), false));
        constraints.setTopology(List.of());
        assertThat(KubeObjects.topology(spec)).isNull();
        assertThat(KubeObjects.topology(new PodGroupSpec())).isNull();
    }

    @Test
    void aQueueLimitCapsEveryResourceItNamesZeroIncluded() {
        Queue queue = new Queue();
        queue.setMetadata(new ObjectMetaBuilder().withName("cpu-only").build());
        queue.getSpec().setLimit(Map.of("nvidia.com/gpu", new Quantity("0"), "cpu", new Quantity("8")));

        var info = KubeObjects.queueInfo(queue);

        assertThat(info.limits("nvidia.com/gpu")).isTrue();
        assertThat(info.limits("cpu")).isTrue();
        assertThat(info.limits("memory")).isFalse();
        assertThat(info.limit().get("cpu")).isEqualTo(8000);
    }

    /** An empty spec.parent is a queue at the top, as QueueDefaults and the Job controller's gate read it. */
    @Test
    void aQueueWithAnEmptyParentIsAtTheTop() {
        Queue queue = new Queue();
        queue.setMetadata(new ObjectMetaBuilder().withName("team").build());
        queue.getSpec().setParent("");

        assertThat(KubeObjects.queueInfo(queue).parent()).isNull();
    }

    /** A PodGroup's queue is read as the Job controller reads a Job's: empty or absent is default, anything else as named. */
    @Test
    void aPodGroupNamingNoQueueIsInDefaultAndABlankNameIsKeptAsNamed() {
        PodGroup none = new PodGroup();
        none.getMetadata().setName("none");
        assertThat(KubeObjects.gangRequirements(none).queue()).isEqualTo(QueueInfo.DEFAULT);
        PodGroup empty = new PodGroup();
        empty.getMetadata().setName("empty");
        empty.getSpec().setQueue("");
        assertThat(KubeObjects.gangRequirements(empty).queue()).isEqualTo(QueueInfo.DEFAULT);
        PodGroup blank = new PodGroup();
        blank.getMetadata().setName("blank");
        blank.getSpec().setQueue(" ");
        assertThat(KubeObjects.gangRequirements(blank).queue()).isEqualTo(" ");
    }

    /**
     * Volcano's {@code runningEstimate} is what backfill plans with when no {@code maxRuntime} bounds the gang;
     * an enforced {@code maxRuntime} wins over an estimate.
     */
    @Test
    void backfillPlansWithTheRunningEstimateOnlyWhereNoMaxRuntimeIsSet() {
        PodGroup estimated = new PodGroup();
        estimated.getMetadata().setName("estimated");
        estimated.getSpec().setRunningEstimate("45m");
        assertThat(KubeObjects.gangRequirements(estimated).maxRuntime()).isEqualTo(Duration.ofMinutes(45));

        PodGroup bounded = new PodGroup();
        bounded.getMetadata().setName("bounded");
        bounded.getSpec().setRunningEstimate("45m");
        bounded.getSpec().setMaxRuntime("2h");
        assertThat(KubeObjects.gangRequirements(bounded).maxRuntime()).isEqualTo(Duration.ofHours(2));

        PodGroup neither = new PodGroup();
        neither.getMetadata().setName("neither");
        assertThat(KubeObjects.gangRequirements(neither).maxRuntime()).isNull();
    }
}
