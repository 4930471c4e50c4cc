package dev.muster.scheduler;

import dev.muster.api.scheduling.v1alpha1.PodGroupFixtures;
import dev.muster.gang.JobAdmissionRule;
import dev.muster.scheduler.core.dra.DeviceLedger;
import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.JobSpec;
import dev.muster.api.batch.v1alpha1.JobState;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.rendering.VolcanoPodLabels;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.QueueInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.model.RunningGang;
import dev.muster.scheduler.core.placement.PodPlacement;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SchedulerCacheTest {
    private final SchedulerCache cache = new SchedulerCache(JobAdmissionRule.ON, VolcanoPodLabels.DEFAULT);

    private static Node node(String name, String cpu) {
        return new NodeBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewStatus().addToAllocatable("cpu", new Quantity(cpu)).addToAllocatable("pods", new Quantity("110"))
                .addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build();
    }

    private static Pod pod(String name, String podGroup, String task, String cpu) {
        PodBuilder pod = new PodBuilder().withNewMetadata().withName(name).withNamespace("ns").withUid(name + "-uid")
                .endMetadata()
                .withNewSpec().withSchedulerName(MusterLabels.SCHEDULER_NAME).addNewContainer().withName("c")
                .withNewResources().addToRequests("cpu", new Quantity(cpu)).endResources().endContainer().endSpec();
        if (podGroup != null) {
            pod.editMetadata().addToLabels(MusterLabels.POD_GROUP, podGroup).addToLabels(MusterLabels.TASK_NAME, task)
                    .endMetadata();
        }
        return pod.build();
    }

    private static Pod boundTo(Pod pod, String nodeName) {
        return new PodBuilder(pod).editSpec().withNodeName(nodeName).endSpec().build();
    }

    private static PodGroup podGroup(String name, int minMember) {
        PodGroup podGroup = PodGroupFixtures.podGroup("ns", name, minMember);
        podGroup.getMetadata().setCreationTimestamp("2024-01-01T00:00:00Z");
        return podGroup;
    }

    private long freeCpu(String node) {
        return cache.beginCycle().snapshot().node(node).orElseThrow().free(ResourceVector.CPU);
    }

    @Test
    void podsBoundByAnySchedulerUseCapacityUntilTheyFinish() {
        cache.putNode(node("node-0", "4"));
        Pod foreign = boundTo(new PodBuilder(pod("other", null, null, "3")).editSpec()
                .withSchedulerName("default-scheduler").endSpec().build(), "node-0");

        assertThat(cache.putPod(foreign)).isFalse();
        assertThat(freeCpu("node-0")).isEqualTo(1000);

        Pod finished = new PodBuilder(foreign).withNewStatus().withPhase("Succeeded").endStatus().build();
        assertThat(cache.putPod(finished)).as("freed capacity asks for a cycle").isTrue();
        assertThat(freeCpu("node-0")).isEqualTo(4000);
    }

    @Test
    void aGangWaitsForItsPodGroupAndCountsItsBoundPods() {
        cache.putNode(node("node-0", "8"));
        assertThat(cache.putPod(pod("w-0", "train", "worker", "1"))).isTrue();
        cache.putPod(boundTo(pod("w-1", "train", "worker", "1"), "node-0"));
        assertThat(cache.beginCycle().gangs()).isEmpty();

        assertThat(cache.putPodGroup(podGroup("train", 2))).isTrue();
        assertThat(cache.putPodGroup(podGroup("train", 2))).as("unchanged").isFalse();

        List<PendingGang> gangs = cache.beginCycle().gangs();
        assertThat(gangs).singleElement().satisfies(gang -> {
            assertThat(gang.gang().minMember()).isEqualTo(2);
            assertThat(gang.pending()).extracting(p -> p.name()).containsExactly("w-0");
            assertThat(gang.bound()).isEqualTo(1);
            assertThat(gang.boundByTask()).isEqualTo(Map.of("worker", 1));
        });
    }

    /**
     * Volcano's scheduler ignores a group's minTaskMember when its minMember is below their sum (an elastic
     * job, {@code JobInfo.CheckTaskValid}): the gang is any minMember of its pods.
     */
    @Test
    void anElasticGroupsGangHasNoTaskMinimums() {
        cache.putNode(node("node-0", "8"));
        cache.putPod(pod("w-0", "train", "worker", "1"));
        PodGroup elastic = podGroup("train", 3);
        elastic.getSpec().setMinTaskMember(Map.of("worker", 6));
        cache.putPodGroup(elastic);

        assertThat(onlyGang().gang().minTaskMember()).isEmpty();

        PodGroup gang = podGroup("train", 6);
        gang.getSpec().setMinTaskMember(Map.of("worker", 6));
        cache.putPodGroup(gang);
        assertThat(onlyGang().gang().minTaskMember()).isEqualTo(Map.of("worker", 6));
    }

    @Test
    void succeededMembersUseNoRoomButStillCountTowardTheQuorum() {
        cache.putNode(node("node-0", "8"));
        cache.putPodGroup(podGroup("train", 3));
        Pod first = boundTo(pod("w-0", "train", "worker", "2"), "node-0");
        Pod second = boundTo(pod("w-1", "train", "worker", "2"), "node-0");
        cache.putPod(first);
        cache.putPod(second);
        cache.putPod(pod("w-2", "train", "worker", "2"));

        cache.putPod(new PodBuilder(first).withNewStatus().withPhase("Succeeded").endStatus().build());
        cache.putPod(new PodBuilder(second).withNewStatus().withPhase("Failed").endStatus().build());

        assertThat(freeCpu("node-0")).isEqualTo(8000);
        assertThat(cache.beginCycle().gangs()).singleElement().satisfies(gang -> {
            assertThat(gang.bound()).as("the succeeded member, not the failed one").isEqualTo(1);
            assertThat(gang.boundByTask()).isEqualTo(Map.of("worker", 1));
        });
        cache.removePod(first);
        assertThat(cache.beginCycle().gangs()).singleElement().satisfies(gang -> assertThat(gang.bound()).isZero());
    }

    @Test
    void podsOfAMissingPodGroupAreListedApartUntilTheGroupExists() {
        cache.putNode(node("node-0", "8"));
        cache.putPod(pod("w-0", "late", "worker", "1"));
        cache.putPod(pod("w-1", "late", "worker", "1"));

        CycleInput input = cache.beginCycle();

        assertThat(input.gangs()).isEmpty();
        assertThat(input.missing()).singleElement().satisfies(missing -> {
            assertThat(missing.message()).isEqualTo("pod group \"ns/late\" not found");
            assertThat(missing.pods()).extracting(p -> p.name()).containsExactly("w-0", "w-1");
        });

        PodGroup late = podGroup("late", 2);
        cache.putPodGroup(late);
        assertThat(cache.beginCycle().missing()).isEmpty();
        assertThat(cache.removePodGroup(late)).as("its pods must be told").isTrue();
        assertThat(cache.beginCycle().missing()).hasSize(1);
    }

    @Test
    void podsBoundToADeletedNodeDoNotCountTowardTheQuorum() {
        Node gone = node("node-0", "8");
        cache.putNode(gone);
        cache.putNode(node("node-1", "8"));
        cache.putPodGroup(podGroup("train", 3));
        cache.putPod(boundTo(pod("w-0", "train", "worker", "1"), "node-0"));
        cache.putPod(boundTo(pod("w-1", "train", "worker", "1"), "node-1"));
        cache.putPod(pod("w-2", "train", "worker", "1"));

        assertThat(cache.removeNode(gone)).as("the waiting gang lost a member").isTrue();

        assertThat(cache.beginCycle().gangs()).singleElement().satisfies(gang -> {
            assertThat(gang.bound()).isEqualTo(1);
            assertThat(gang.boundByTask()).isEqualTo(Map.of("worker", 1));
        });
        assertThat(cache.removeNode(node("node-9", "8"))).as("no pod of a waiting gang there").isFalse();
    }

    @Test
    void aPodGroupsScheduleTimeoutIsItsGangsWaitingTime() {
        cache.putNode(node("node-0", "8"));
        cache.putPod(pod("w-0", "train", "worker", "1"));
        PodGroup train = podGroup("train", 1);
        cache.putPodGroup(train);
        assertThat(cache.beginCycle().gangs().get(0).gang().scheduleTimeout()).isNull();

        train.getSpec().setScheduleTimeoutSeconds(5);
        assertThat(cache.putPodGroup(train)).as("a changed requirement asks for a cycle").isTrue();

        assertThat(cache.beginCycle().gangs().get(0).gang().scheduleTimeout()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void anAssumedPodUsesItsNodeUntilItsBindFails() {
        cache.putNode(node("node-0", "4"));
        Pod pod = pod("solo", null, null, "3");
        cache.putPod(pod);
        var info = cache.beginCycle().gangs().get(0).pending().get(0);

        List<BindRequest> binds = cache.assume(List.of(new PodPlacement(info, "node-0")), DeviceLedger.empty());
        assertThat(binds).containsExactly(new BindRequest("ns", "solo", "solo-uid", "node-0", List.of()));
        assertThat(freeCpu("node-0")).isEqualTo(1000);
        assertThat(cache.beginCycle().gangs()).isEmpty();

        assertThat(cache.putPod(pod)).as("the informer has not seen the binding yet").isFalse();
        assertThat(freeCpu("node-0")).isEqualTo(1000);

        cache.forget(binds.get(0));
        assertThat(freeCpu("node-0")).isEqualTo(4000);
        assertThat(cache.beginCycle().gangs()).hasSize(1);
    }

    @Test
    void anAssumedPodIsConfirmedByTheInformer() {
        cache.putNode(node("node-0", "4"));
        Pod pod = pod("solo", null, null, "3");
        cache.putPod(pod);
        var info = cache.beginCycle().gangs().get(0).pending().get(0);
        BindRequest bind = cache.assume(List.of(new PodPlacement(info, "node-0")), DeviceLedger.empty()).get(0);

        cache.putPod(boundTo(pod, "node-0"));
        cache.forget(bind);

        assertThat(freeCpu("node-0")).as("a late failure report does not undo a binding the API server shows")
                .isEqualTo(1000);
    }

    @Test
    void ignoresPendingPodsOfOtherSchedulers() {
        Pod foreign = new PodBuilder(pod("other", null, null, "1")).editSpec().withSchedulerName("default-scheduler")
                .endSpec().build();

        assertThat(cache.putPod(foreign)).isFalse();
        assertThat(cache.beginCycle().gangs()).isEmpty();
    }

    @Test
    void ordersAGangByItsPodGroupsPriorityClassElseByItsPodsClassesElseByTheGlobalDefault() {
        cache.putNode(node("node-0", "8"));
        cache.putPod(pod("a-0", "a", "w", "1"));
        cache.putPod(new PodBuilder(pod("b-0", "b", "w", "1")).editSpec().withPriorityClassName("high").endSpec().build());
        cache.putPod(new PodBuilder(pod("c-0", "c", "w", "1")).editSpec().withPriority(7).withPriorityClassName("high")
                .endSpec().build());
        PodGroup a = podGroup("a", 1);
        a.getSpec().setPriorityClassName("urgent");
        cache.putPodGroup(a);
        cache.putPodGroup(podGroup("b", 1));
        cache.putPodGroup(podGroup("c", 1));

        assertThat(cache.putPriorityClass(priorityClass("urgent", 1000, false))).as("pods wait").isTrue();
        assertThat(cache.putPriorityClass(priorityClass("urgent", 1000, false))).as("unchanged").isFalse();
        cache.putPriorityClass(priorityClass("high", 100, false));
        cache.putPriorityClass(priorityClass("batch", 5, true));
        cache.putPod(pod("solo", null, null, "1"));

        assertThat(priorities()).isEqualTo(Map.of("a", 1000, "b", 100, "c", 7, "solo", 5));

        cache.removePriorityClass(priorityClass("urgent", 1000, false));
        assertThat(priorities()).as("a PodGroup naming an unknown class falls back to its pods")
                .containsEntry("a", 5);

        // Two defaults only by a race: kube-apiserver's Priority admission gives pods the lowest.
        cache.putPriorityClass(priorityClass("batch-high", 50, true));
        assertThat(priorities()).containsEntry("solo", 5);
        cache.removePriorityClass(priorityClass("batch", 5, true));
        assertThat(priorities()).containsEntry("solo", 50);
    }

    @Test
    void aGangWithPodsBoundRunsInItsQueueSinceItsScheduledConditionWithItsEvictionCount() {
        cache.putNode(node("node-0", "4"));
        PodGroup podGroup = podGroup("train", 2);
        podGroup.getSpec().setQueue("research");
        podGroup.getSpec().setMaxRuntime("1h");
        podGroup.getMetadata().setAnnotations(Map.of(PodEvictor.EVICTIONS_ANNOTATION, "2"));
        PodGroupCondition scheduled = new PodGroupCondition();
        scheduled.setType(PodGroupCondition.SCHEDULED);
        scheduled.setStatus("True");
        scheduled.setLastTransitionTime("2024-01-01T00:05:00Z");
        PodGroupStatus status = new PodGroupStatus();
        status.setConditions(List.of(scheduled));
        podGroup.setStatus(status);
        cache.putPodGroup(podGroup);
        cache.putPod(boundTo(pod("train-0", "train", "worker", "1"), "node-0"));
        cache.putPod(boundTo(pod("train-1", "train", "worker", "1"), "node-0"));

        RunningGang running = cache.beginCycle().running().get(GroupKey.podGroup("ns", "train"));

        assertThat(running.gang().queue()).isEqualTo("research");
        assertThat(running.gang().maxRuntime()).isEqualTo(Duration.ofHours(1));
        assertThat(running.startedAt()).isEqualTo(Instant.parse("2024-01-01T00:05:00Z"));
        assertThat(running.evictions()).isEqualTo(2);
    }

    @Test
    void evictedPodsKeepTheirRoomButAreNoLongerTheirGangsMembersUntilTheEvictionIsRefused() {
        cache.putNode(node("node-0", "4"));
        cache.putPodGroup(podGroup("train", 2));
        Pod first = boundTo(pod("train-0", "train", "worker", "1"), "node-0");
        Pod second = boundTo(pod("train-1", "train", "worker", "1"), "node-0");
        cache.putPod(first);
        cache.putPod(second);
        GroupKey train = GroupKey.podGroup("ns", "train");
        List<PodPlacement> victims = List.of(new PodPlacement(KubeObjects.podInfo(first), "node-0"),
                new PodPlacement(KubeObjects.podInfo(second), "node-0"));

        cache.assumeEvicted(victims);
        // The informer shows the status patch before the deletion: the pods are still leaving.
        cache.putPod(new PodBuilder(first).editMetadata().withResourceVersion("2").endMetadata().build());

        assertThat(cache.beginCycle().running()).doesNotContainKey(train);
        assertThat(freeCpu("node-0")).isEqualTo(2000);

        cache.forgetEviction("ns", "train-0");
        cache.forgetEviction("ns", "train-1");

        assertThat(cache.beginCycle().running()).containsKey(train);
        assertThat(freeCpu("node-0")).isEqualTo(2000);
    }

    @Test
    void theDefaultQueueIsPlannedBeforeItsObjectExistsAndAQueueObjectReplacesIt() {
        assertThat(cache.beginCycle().queues()).extracting(QueueInfo::name).containsExactly(QueueInfo.DEFAULT);

        Queue queue = new Queue();
        queue.getMetadata().setName(QueueInfo.DEFAULT);
        queue.getSpec().setWeight(3);
        cache.putQueue(queue);

        assertThat(cache.beginCycle().queues()).singleElement().satisfies(q -> assertThat(q.weight()).isEqualTo(3));
    }

    private Map<String, Integer> priorities() {
        Map<String, Integer> priorities = new java.util.TreeMap<>();
        cache.beginCycle().gangs().forEach(g -> priorities.put(g.gang().key().name(), g.gang().priority()));
        return priorities;
    }

    private static io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass priorityClass(String name, int value,
                                                                                              boolean globalDefault) {
        return new io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder().withNewMetadata()
                .withName(name).endMetadata().withValue(value).withGlobalDefault(globalDefault).build();
    }

    private static Job job(String name, String createdAt, int replicas, String cpu) {
        TaskSpec task = new TaskSpec();
        task.setName("worker");
        task.setReplicas(replicas);
        PodTemplateSpec template = new PodTemplateSpec();
        template.setSpec(new PodSpecBuilder().addNewContainer().withName("c").withNewResources()
                .addToRequests("cpu", new Quantity(cpu)).endResources().endContainer().build());
        task.setTemplate(template);
        JobSpec spec = new JobSpec();
        spec.setTasks(List.of(task));
        Job job = new Job();
        job.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("ns").withUid(name + "-uid")
                .withCreationTimestamp(createdAt).build());
        job.setSpec(spec);
        return job;
    }

    private static PodGroup podGroupOf(Job job, int minMember) {
        PodGroup podGroup = podGroup(job.getMetadata().getName(), minMember);
        podGroup.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder()
                .withApiVersion(HasMetadata.getApiVersion(Job.class)).withKind(HasMetadata.getKind(Job.class))
                .withName(job.getMetadata().getName()).withUid(job.getMetadata().getUid()).withController(true)
                .build()));
        podGroup.getSpec().setMinTaskMember(Map.of("worker", minMember));
        return podGroup;
    }

    private PendingGang onlyGang() {
        List<PendingGang> gangs = cache.beginCycle().gangs();
        assertThat(gangs).hasSize(1);
        return gangs.get(0);
    }

    @Test
    void aPendingJobsGangExpectsThePodsItWillCreateFromItsTemplates() {
        Job job = job("train", "2025-01-01T00:00:00Z", 3, "2");
        cache.putJob(job);
        assertThat(cache.putPodGroup(podGroupOf(job, 3))).as("a new group of a waiting job asks for a cycle").isTrue();
        cache.putPod(pod("train-worker-1", "train", "worker", "2"));

        PendingGang gang = onlyGang();

        assertThat(gang.pending()).extracting(p -> p.name()).containsExactly("train-worker-1");
        assertThat(gang.expected()).extracting(p -> p.name()).containsExactly("train-worker-0", "train-worker-2");
        assertThat(gang.expected()).allSatisfy(p -> {
            assertThat(p.task()).isEqualTo("worker");
            assertThat(p.requests().get(ResourceVector.CPU)).isEqualTo(2000);
        });
        // Each expected pod is the pod the Job controller will create, its own index label included, which a
        // pod (anti-)affinity term or a spread constraint may select on.
        assertThat(gang.expected()).extracting(p -> p.labels().get(MusterLabels.TASK_INDEX)).containsExactly("0", "2");
    }

    @Test
    void theExpectedPodsCarryVolcanosLabelsExactlyWhenTheJobControllersPodsDo() {
        for (boolean volcanoLabels : new boolean[] {true, false}) {
            SchedulerCache withSetting = new SchedulerCache(JobAdmissionRule.ON, volcanoLabels);
            Job job = job("train", "2025-01-01T00:00:00Z", 2, "2");
            withSetting.putJob(job);
            withSetting.putPodGroup(podGroupOf(job, 2));

            PendingGang gang = withSetting.beginCycle().gangs().get(0);

            Job created = job("train", "2025-01-01T00:00:00Z", 2, "2");
            List<Pod> controllerPods = dev.muster.rendering.JobPodRenderer.pods(created, 0, volcanoLabels);
            assertThat(gang.expected()).as("volcano labels %s", volcanoLabels)
                    .extracting(p -> p.labels().get("volcano.sh/job-name"))
                    .containsOnly(volcanoLabels ? "train" : null);
            assertThat(gang.expected()).extracting(p -> p.labels())
                    .containsExactlyElementsOf(controllerPods.stream().map(p -> p.getMetadata().getLabels()).toList());
        }
    }

    @Test
    void aWaitingJobsPodsFollowItsSpecAcrossGenerations() {
        Job job = job("train", "2025-01-01T00:00:00Z", 2, "1");
        job.getMetadata().setGeneration(1L);
        cache.putJob(job);
        cache.putPodGroup(podGroupOf(job, 2));
        assertThat(onlyGang().expected()).hasSize(2);

        Job scaled = Serialization.clone(job);
        scaled.getSpec().getTasks().get(0).setReplicas(3);
        scaled.getMetadata().setGeneration(2L);

        assertThat(cache.putJob(scaled)).as("a new spec of a waiting job asks for a cycle").isTrue();
        assertThat(onlyGang().expected()).extracting(p -> p.name())
                .containsExactly("train-worker-0", "train-worker-1", "train-worker-2");
        assertThat(cache.putJob(Serialization.clone(scaled))).as("the same generation again changes nothing").isFalse();
    }

    @Test
    void aPendingJobWhosePodsAllExistAndAreBoundExpectsNothingAndIsNotAGangToTry() {
        cache.putNode(node("n1", "8"));
        Job job = job("train", "2025-01-01T00:00:00Z", 2, "2");
        cache.putJob(job);
        cache.putPodGroup(podGroupOf(job, 2));
        cache.putPod(boundTo(pod("train-worker-0", "train", "worker", "2"), "n1"));
        cache.putPod(pod("train-worker-1", "train", "worker", "2"));

        assertThat(onlyGang().expected()).as("a bound pod is not still to come").isEmpty();

        cache.putPod(boundTo(pod("train-worker-1", "train", "worker", "2"), "n1"));

        assertThat(cache.beginCycle().gangs()).as("the job is still Pending in its status, but nothing waits").isEmpty();
        assertThat(freeCpu("n1")).as("no room held for pods that already have theirs").isEqualTo(4000);
    }

    @Test
    void aJobGangQueuesFromWhenTheJobWasSubmittedNotWhenItsPodGroupWasCreated() {
        Job job = job("train", "2023-06-01T00:00:00Z", 1, "1");
        cache.putJob(job);
        cache.putPodGroup(podGroupOf(job, 1));

        assertThat(onlyGang().gang().createdAt()).isEqualTo(Instant.parse("2023-06-01T00:00:00Z"));
    }

    @Test
    void aJobThatDoesNotWaitForAdmissionExpectsNothing() {
        Job suspended = job("paused", "2025-01-01T00:00:00Z", 2, "1");
        suspended.getSpec().setSuspend(true);
        Job running = job("running", "2025-01-01T00:00:00Z", 2, "1");
        JobState state = new JobState();
        state.setPhase(JobPhase.Running);
        JobStatus status = new JobStatus();
        status.setState(state);
        running.setStatus(status);
        Job elsewhere = job("elsewhere", "2025-01-01T00:00:00Z", 2, "1");
        elsewhere.getSpec().setSchedulerName("default-scheduler");
        for (Job job : List.of(suspended, running, elsewhere)) {
            cache.putJob(job);
            cache.putPodGroup(podGroupOf(job, 2));
        }

        assertThat(cache.beginCycle().gangs()).isEmpty();

        suspended.getSpec().setSuspend(false);
        assertThat(cache.putJob(suspended)).as("resuming asks for a cycle").isTrue();
        assertThat(onlyGang().expected()).hasSize(2);
    }

    @Test
    void aPodsDevicesAreCountedOnItsNodeWhetherItsTemplateIsSeenBeforeOrAfterIt() {
        cache.putNode(node("node-0", "8"));
        Pod pod = new PodBuilder(boundTo(pod("p", "g", "worker", "1"), "node-0")).editSpec().addNewResourceClaim()
                .withName("gpus").withResourceClaimTemplateName("eight").endResourceClaim().endSpec().build();
        String gpus = "deviceclass.resource.kubernetes.io/gpu.example.com";
        GenericKubernetesResource template = new GenericKubernetesResource();
        template.setApiVersion("resource.k8s.io/v1");
        template.setKind("ResourceClaimTemplate");
        template.setMetadata(new ObjectMetaBuilder().withName("eight").withNamespace("ns").build());
        template.setAdditionalProperty("spec", Map.of("spec", Map.of("devices", Map.of("requests", List.of(
                Map.of("name", "gpus", "exactly", Map.of("deviceClassName", "gpu.example.com", "count", 8)))))));

        cache.putPod(pod);
        assertThat(cache.beginCycle().snapshot().nodes().get(0).requested().get(gpus)).isZero();
        cache.putResourceClaimTemplate(template);
        assertThat(cache.beginCycle().snapshot().nodes().get(0).requested().get(gpus)).isEqualTo(8);
        // Seen again after its template: counted once.
        cache.putPod(pod);
        assertThat(cache.beginCycle().snapshot().nodes().get(0).requested().get(gpus)).isEqualTo(8);
        cache.removeResourceClaimTemplate(template);
        assertThat(cache.beginCycle().snapshot().nodes().get(0).requested().get(gpus)).isZero();
    }
}
