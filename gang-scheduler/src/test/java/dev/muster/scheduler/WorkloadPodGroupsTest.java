package dev.muster.scheduler;

import dev.muster.gang.GangVerdict;
import dev.muster.scheduler.core.model.GangTopology;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.MissingPodGroup;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** How Kubernetes' own PodGroups (the Workload API) and the pods that name them are read, and their condition written. */
class WorkloadPodGroupsTest {
    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");

    private static GenericKubernetesResource podGroup(String policyAndConstraints) {
        return Serialization.unmarshal("""
                {"apiVersion": "scheduling.k8s.io/v1alpha2", "kind": "PodGroup",
                 "metadata": {"name": "workers", "namespace": "ml", "generation": 1,
                              "creationTimestamp": "2026-11-29T09:00:00Z"},
                 "spec": {%s}}""".formatted(policyAndConstraints), GenericKubernetesResource.class);
    }

    @Test
    void aPodJoinsTheKubernetesPodGroupItsSchedulingGroupNamesUnlessAMusterLabelNamesOne() {
        Pod named = new PodBuilder().withNewMetadata().withName("w-0").withNamespace("ml").endMetadata()
                .withNewSpec().endSpec().build();
        named.getSpec().setAdditionalProperty("schedulingGroup", Map.of("podGroupName", "workers"));
        Pod labelled = new PodBuilder(named).editMetadata().addToLabels("scheduling.x-k8s.io/pod-group", "other")
                .endMetadata().build();
        labelled.getSpec().setAdditionalProperty("schedulingGroup", Map.of("podGroupName", "workers"));

        assertThat(KubeObjects.groupKey(named)).isEqualTo(GroupKey.workloadPodGroup("ml", "workers"));
        assertThat(KubeObjects.groupKey(named).workloadPodGroupName()).contains("workers");
        assertThat(KubeObjects.groupKey(named)).isNotEqualTo(GroupKey.podGroup("ml", "workers"));
        assertThat(KubeObjects.groupKey(labelled)).isEqualTo(GroupKey.podGroup("ml", "other"));
        assertThat(GroupKey.podGroup("ml", "workers").workloadPodGroupName()).isEmpty();
        assertThat(new MissingPodGroup(GroupKey.workloadPodGroup("ml", "workers"), List.of()).message())
                .isEqualTo("podgroups.scheduling.k8s.io \"ml/workers\" not found");
    }

    @Test
    void aGangPolicysMinCountIsTheQuorumABasicPolicyPlacesEachPodAndATopologyKeyIsRequired() {
        GangRequirements gang = WorkloadPodGroups.requirements(podGroup("""
                "schedulingPolicy": {"gang": {"minCount": 4}},
                "schedulingConstraints": {"topology": [{"key": "topology.kubernetes.io/rack"}]}""")).orElseThrow();
        GangRequirements basic = WorkloadPodGroups.requirements(podGroup("\"schedulingPolicy\": {\"basic\": {}}")).orElseThrow();

        assertThat(gang.minMember()).isEqualTo(4);
        assertThat(gang.topology()).isEqualTo(new GangTopology(List.of("topology.kubernetes.io/rack"), true));
        assertThat(gang.createdAt()).isEqualTo(Instant.parse("2026-11-29T09:00:00Z"));
        assertThat(gang.ownerJobKey()).isNull();
        assertThat(basic.minMember()).isEqualTo(1);
        assertThat(basic.topology()).isNull();
        assertThat(WorkloadPodGroups.requirements(podGroup("\"schedulingPolicy\": {\"gang\": {\"minCount\": 0}}"))).isEmpty();
        assertThat(WorkloadPodGroups.requirements(podGroup("\"schedulingPolicy\": {}"))).isEmpty();
    }

    @Test
    void theConditionIsNamedForTheApiVersion() {
        assertThat(WorkloadPodGroups.scheduledCondition("scheduling.k8s.io/v1alpha2")).isEqualTo("PodGroupScheduled");
        assertThat(WorkloadPodGroups.scheduledCondition("scheduling.k8s.io/v1beta1")).isEqualTo("PodGroupInitiallyScheduled");
    }

    @Test
    void theConditionIsWrittenOnChangeKeepsItsTransitionTimeAndStaysTrueOnceTrue() {
        WorkloadPodGroupConditions conditions = new WorkloadPodGroupConditions(null, "scheduling.k8s.io/v1alpha2", null,
                Runnable::run, Clock.fixed(NOW, ZoneOffset.UTC));
        GenericKubernetesResource group = podGroup("\"schedulingPolicy\": {\"gang\": {\"minCount\": 4}}");
        GangVerdict waits = verdict(GangVerdict.Outcome.UNSCHEDULABLE, "4 pods do not fit: 2 Insufficient cpu");

        GenericKubernetesResource unschedulable = conditions.withCondition(group, waits);

        assertThat(condition(unschedulable)).containsEntry("type", "PodGroupScheduled").containsEntry("status", "False")
                .containsEntry("reason", "Unschedulable").containsEntry("message", "4 pods do not fit: 2 Insufficient cpu")
                .containsEntry("lastTransitionTime", "2026-11-29T10:00:00Z").containsEntry("observedGeneration", 1L);
        assertThat(conditions.withCondition(unschedulable, waits)).as("the same verdict writes nothing").isNull();
        GenericKubernetesResource otherMessage = new WorkloadPodGroupConditions(null, "scheduling.k8s.io/v1alpha2", null,
                Runnable::run, Clock.fixed(NOW.plusSeconds(60), ZoneOffset.UTC))
                .withCondition(unschedulable, verdict(GangVerdict.Outcome.UNSCHEDULABLE, "held: queue closed"));
        assertThat(condition(otherMessage)).containsEntry("message", "held: queue closed")
                .as("the status did not change").containsEntry("lastTransitionTime", "2026-11-29T10:00:00Z");

        GenericKubernetesResource scheduled = conditions.withCondition(otherMessage,
                verdict(GangVerdict.Outcome.SCHEDULED, "4/4 pods bound"));
        assertThat(condition(scheduled)).containsEntry("status", "True").containsEntry("reason", "Scheduled");
        assertThat(conditions.withCondition(scheduled, waits)).as("True stays, as the API documents").isNull();
    }

    private static GangVerdict verdict(GangVerdict.Outcome outcome, String message) {
        return new GangVerdict("ml", "scheduling.k8s.io/workers", outcome, "Unschedulable", message, "t", NOW);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> condition(GenericKubernetesResource podGroup) {
        Map<String, Object> status = (Map<String, Object>) podGroup.getAdditionalProperties().get("status");
        List<Object> conditions = (List<Object>) status.get("conditions");
        assertThat(conditions).hasSize(1);
        return (Map<String, Object>) conditions.get(0);
    }
}
