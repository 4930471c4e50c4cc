package dev.muster.scheduler;

import dev.muster.api.MusterLabels;
import dev.muster.api.PodPreemption;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupFixtures;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.placement.PodPlacement;
import dev.muster.scheduler.core.preemption.Eviction;
import dev.muster.support.event.EventRecorder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.http.Interceptor.RequestTags;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The evictor against the local cluster over HTTP: a running gang of three pods, evicted whole for a
 * preemptor, with and without a PodDisruptionBudget in the way. Evicted pods take a minute to stop, so
 * that the tests see them Terminating.
 */
@Tag("emulator")
class PodEvictorTest {
    private static final String NS = "default";
    private static final GroupKey VICTIM = GroupKey.podGroup(NS, "victim");
    private static final GroupKey PREEMPTOR = GroupKey.podGroup(NS, "preemptor");

    private LocalCluster cluster;
    private KubernetesClient client;
    private SharedIndexInformer<Pod> pods;
    private SharedIndexInformer<PodGroup> podGroups;
    private SimpleMeterRegistry registry;
    private PodEvictor evictor;
    private final List<String> stayed = new java.util.concurrent.CopyOnWriteArrayList<>();

    @BeforeEach
    void startClusterAndGang() {
        cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(1).withPodStartDelay(Duration.ofMillis(50))
                .withDefaultRunTime(Duration.ofMinutes(10)).withPodStopDelay(Duration.ofMinutes(1)));
        client = cluster.client();
        for (String name : List.of("victim", "preemptor")) {
            client.resources(PodGroup.class).inNamespace(NS).resource(PodGroupFixtures.podGroup(NS, name, 3)).create();
        }
        for (int i = 0; i < 3; i++) {
            client.pods().inNamespace(NS).resource(victimPod("victim-" + i)).create();
        }
        await().untilAsserted(() -> assertThat(client.pods().inNamespace(NS).withLabel("app", "victim").list().getItems())
                .allSatisfy(pod -> assertThat(pod.getStatus().getPhase()).isEqualTo("Running")).hasSize(3));
        pods = client.pods().inNamespace(NS).inform();
        podGroups = client.resources(PodGroup.class).inNamespace(NS).inform();
        registry = new SimpleMeterRegistry();
        evictor = evictorOn(client);
    }

    private PodEvictor evictorOn(KubernetesClient api) {
        SchedulingEvents events = new SchedulingEvents(new EventRecorder(client, GangScheduler.COMPONENT),
                podGroups.getStore(), pods.getStore(), Runnable::run);
        return new PodEvictor(api, pods.getStore(), podGroups.getStore(), events,
                new SchedulerMetrics(registry), Runnable::run, Clock.systemUTC(), (namespace, name) -> stayed.add(name));
    }

    @AfterEach
    void stop() {
        pods.close();
        podGroups.close();
        cluster.close();
    }

    @Test
    void aWholeGangIsMarkedEvictedAndCountedWithAnEventOnEachSide() {
        evictor.evictAll(List.of(wholeGang()), uids());

        await().untilAsserted(() -> assertThat(victims()).hasSize(3).allSatisfy(pod -> {
            assertThat(pod.getMetadata().getDeletionTimestamp()).isNotNull();
            assertThat(PodPreemption.isPreempted(pod)).isTrue();
            assertThat(PodPreemption.message(pod)).hasValueSatisfying(m -> assertThat(m).contains("podgroup default/preemptor"));
        }));
        assertThat(client.resources(PodGroup.class).inNamespace(NS).withName("victim").get().getMetadata().getAnnotations())
                .containsEntry(PodEvictor.EVICTIONS_ANNOTATION, "1");
        assertThat(registry.get(SchedulerMetrics.PODS_EVICTED).tag("reason", "Reclaim").counter().count()).isEqualTo(3);
        assertThat(registry.get(SchedulerMetrics.GANGS_BROKEN).counter().count()).isZero();
        await().untilAsserted(() -> {
            assertThat(events("victim")).anySatisfy(e -> {
                assertThat(e.getReason()).isEqualTo(PodPreemption.PREEMPTED);
                assertThat(e.getMessage()).isEqualTo("reclaimed for podgroup default/preemptor");
            });
            assertThat(events("preemptor")).anySatisfy(e -> {
                assertThat(e.getReason()).isEqualTo(SchedulingEvents.PREEMPTING);
                assertThat(e.getMessage()).contains("podgroup default/victim (3 pod(s), the whole gang)");
            });
        });
    }

    @Test
    void aSecondEvictionOfTheGangCountsTwo() {
        evictor.evictAll(List.of(wholeGang()), uids());
        await().until(() -> "1".equals(podGroups.getStore().getByKey("default/victim").getMetadata().getAnnotations()
                .get(PodEvictor.EVICTIONS_ANNOTATION)));

        evictor.evictAll(List.of(wholeGang()), uids());

        assertThat(client.resources(PodGroup.class).inNamespace(NS).withName("victim").get().getMetadata().getAnnotations())
                .containsEntry(PodEvictor.EVICTIONS_ANNOTATION, "2");
    }

    @Test
    void aBudgetThatAllowsNoDisruptionStopsTheEvictionBeforeAnyPodGoes() {
        budget(3);

        evictor.evictAll(List.of(wholeGang()), uids());

        assertThat(victims()).allSatisfy(pod -> {
            assertThat(pod.getMetadata().getDeletionTimestamp()).isNull();
            assertThat(PodPreemption.isPreempted(pod)).isFalse();
        });
        assertThat(registry.get(SchedulerMetrics.EVICTIONS_REFUSED).counter().count()).isEqualTo(1);
        assertThat(stayed).containsExactly("victim-0", "victim-1", "victim-2");
        assertThat(registry.get(SchedulerMetrics.GANGS_BROKEN).counter().count()).isZero();
        assertThat(client.resources(PodGroup.class).inNamespace(NS).withName("victim").get().getMetadata().getAnnotations())
                .doesNotContainKey(PodEvictor.EVICTIONS_ANNOTATION);
        await().untilAsserted(() -> assertThat(events("preemptor"))
                .anySatisfy(e -> assertThat(e.getReason()).isEqualTo(SchedulingEvents.EVICTION_REFUSED)));
    }

    @Test
    void aBudgetThatRefusesPartWayIsCountedAsABrokenGang() {
        budget(2);

        evictor.evictAll(List.of(wholeGang()), uids());

        assertThat(victims()).filteredOn(pod -> pod.getMetadata().getDeletionTimestamp() != null).hasSize(1);
        assertThat(registry.get(SchedulerMetrics.GANGS_BROKEN).counter().count()).isEqualTo(1);
        assertThat(stayed).containsExactly("victim-1", "victim-2");
        await().untilAsserted(() -> assertThat(events("victim"))
                .anySatisfy(e -> assertThat(e.getReason()).isEqualTo(SchedulingEvents.GANG_BROKEN)));
    }

    @Test
    void aPodAlreadyGoneIsNoFailure() {
        Eviction eviction = wholeGang();
        client.pods().inNamespace(NS).withName("victim-0").withGracePeriod(0).delete();
        await().until(() -> client.pods().inNamespace(NS).withName("victim-0").get() == null);

        evictor.evictAll(List.of(eviction), uids());

        assertThat(registry.get(SchedulerMetrics.EVICTION_FAILURES).counter().count()).isZero();
        assertThat(registry.get(SchedulerMetrics.PODS_EVICTED).tag("reason", "Reclaim").counter().count()).isEqualTo(2);
    }

    @Test
    void anEvictionThatFailsTakesItsMarkBack() {
        // The API server never answers an eviction: every other request goes through.
        try (KubernetesClient evictionsFail = new KubernetesClientBuilder().withConfig(client.getConfiguration())
                .withHttpClientBuilderConsumer(builder -> builder.addOrReplaceInterceptor("evictions-fail", new Interceptor() {
                    @Override
                    public void before(BasicBuilder request, HttpRequest sent, RequestTags tags) {
                        if (sent.uri().getPath().endsWith("/eviction")) {
                            throw new KubernetesClientException("injected: the eviction's connection was reset");
                        }
                    }
                })).build()) {
            evictorOn(evictionsFail).evictAll(List.of(wholeGang()), uids());
        }

        assertThat(victims()).hasSize(3).allSatisfy(pod -> {
            assertThat(pod.getMetadata().getDeletionTimestamp()).isNull();
            assertThat(PodPreemption.isPreempted(pod)).isFalse();
            assertThat(pod.getStatus().getConditions()).anySatisfy(c -> {
                assertThat(c.getType()).isEqualTo(PodPreemption.DISRUPTION_TARGET);
                assertThat(c.getStatus()).isEqualTo("False");
            });
        });
        assertThat(stayed).containsExactly("victim-0", "victim-1", "victim-2");
        assertThat(registry.get(SchedulerMetrics.EVICTION_FAILURES).counter().count()).isEqualTo(3);
    }

    @Test
    void aConflictWhileTheVictimIsStillThereIsTriedAgain() {
        AtomicInteger conflicts = new AtomicInteger();
        try (KubernetesClient firstConflicts = clientWhoseEvictions(path -> path.endsWith("/victim-1/eviction")
                && conflicts.incrementAndGet() == 1)) {
            evictorOn(firstConflicts).evictAll(List.of(wholeGang()), uids());
        }

        assertThat(conflicts).hasValueGreaterThan(1);
        assertThat(victims()).hasSize(3).allSatisfy(pod -> assertThat(pod.getMetadata().getDeletionTimestamp()).isNotNull());
        assertThat(registry.get(SchedulerMetrics.PODS_EVICTED).tag("reason", "Reclaim").counter().count()).isEqualTo(3);
        assertThat(registry.get(SchedulerMetrics.EVICTION_FAILURES).counter().count()).isZero();
        assertThat(stayed).isEmpty();
    }

    @Test
    void aVictimWhoseEvictionsKeepConflictingStaysUnmarkedAndIsCountedAsAFailure() {
        try (KubernetesClient alwaysConflicts = clientWhoseEvictions(path -> path.endsWith("/victim-1/eviction"))) {
            evictorOn(alwaysConflicts).evictAll(List.of(wholeGang()), uids());
        }

        Pod stays = client.pods().inNamespace(NS).withName("victim-1").get();
        assertThat(stays.getMetadata().getDeletionTimestamp()).isNull();
        assertThat(PodPreemption.isPreempted(stays)).isFalse();
        assertThat(stayed).containsExactly("victim-1");
        assertThat(registry.get(SchedulerMetrics.EVICTION_FAILURES).counter().count()).isEqualTo(1);
        assertThat(victims()).filteredOn(pod -> pod.getMetadata().getDeletionTimestamp() != null).hasSize(2);
    }

    /** A client whose eviction requests answer 409, as an API server that lost a race, where {@code conflicts} says. */
    private KubernetesClient clientWhoseEvictions(Predicate<String> conflicts) {
        return new KubernetesClientBuilder().withConfig(client.getConfiguration())
                .withHttpClientBuilderConsumer(builder -> builder.addOrReplaceInterceptor("evictions-conflict", new Interceptor() {
                    @Override
                    public void before(BasicBuilder request, HttpRequest sent, RequestTags tags) {
                        if (conflicts.test(sent.uri().getPath())) {
                            throw new KubernetesClientException(new StatusBuilder().withCode(409).withReason("Conflict")
                                    .withMessage("injected: Operation cannot be fulfilled on pods").build());
                        }
                    }
                })).build();
    }

    @Test
    void aMarkThatNoEvictionFollowedIsSetBackByTheSweep() {
        // As a leader that stopped between marking and evicting leaves it; victim-2 is being deleted.
        for (String name : List.of("victim-0", "victim-2")) {
            client.pods().inNamespace(NS).withName(name).subresource("status").patch(PatchContext.of(PatchType.STRATEGIC_MERGE),
                    "{\"status\":{\"conditions\":[{\"type\":\"DisruptionTarget\",\"status\":\"True\","
                            + "\"reason\":\"PreemptionByScheduler\",\"message\":\"muster-scheduler: preempting\"}]}}");
        }
        client.pods().inNamespace(NS).withName("victim-2").delete();
        await().untilAsserted(() -> {
            assertThat(PodPreemption.isPreempted(pods.getStore().getByKey(NS + "/victim-0"))).isTrue();
            assertThat(pods.getStore().getByKey(NS + "/victim-2").getMetadata().getDeletionTimestamp()).isNotNull();
        });

        assertThat(evictor.sweepStaleMarks()).isEqualTo(1);

        assertThat(PodPreemption.isPreempted(client.pods().inNamespace(NS).withName("victim-0").get())).isFalse();
        assertThat(PodPreemption.isPreempted(client.pods().inNamespace(NS).withName("victim-2").get())).isTrue();
        assertThat(client.pods().inNamespace(NS).withName("victim-0").get().getMetadata().getDeletionTimestamp()).isNull();
    }

    @Test
    void aPodReplacedUnderTheVictimsNameIsNeitherMarkedNorEvicted() {
        Eviction eviction = wholeGang();
        Map<String, String> seen = uids();
        client.pods().inNamespace(NS).withName("victim-0").withGracePeriod(0).delete();
        await().until(() -> client.pods().inNamespace(NS).withName("victim-0").get() == null);
        Pod newcomer = client.pods().inNamespace(NS).resource(victimPod("victim-0")).create();
        await().until(() -> newcomer.getMetadata().getUid().equals(pods.getStore().getByKey(NS + "/victim-0").getMetadata().getUid()));

        evictor.evictAll(List.of(eviction), seen);

        Pod after = client.pods().inNamespace(NS).withName("victim-0").get();
        assertThat(after.getMetadata().getUid()).isEqualTo(newcomer.getMetadata().getUid());
        assertThat(after.getMetadata().getDeletionTimestamp()).isNull();
        assertThat(PodPreemption.isPreempted(after)).isFalse();
        assertThat(registry.get(SchedulerMetrics.PODS_EVICTED).tag("reason", "Reclaim").counter().count()).isEqualTo(2);
    }

    /** The uid of each pod as the informer has it now: what a decision made now saw. */
    private Map<String, String> uids() {
        return pods.getStore().list().stream().collect(java.util.stream.Collectors.toMap(
                pod -> NS + "/" + pod.getMetadata().getName(), pod -> pod.getMetadata().getUid()));
    }

    private void budget(int minAvailable) {
        client.policy().v1().podDisruptionBudget().inNamespace(NS).resource(new PodDisruptionBudgetBuilder()
                .withNewMetadata().withName("victim").endMetadata()
                .withNewSpec().withMinAvailable(new IntOrString(minAvailable))
                .withNewSelector().withMatchLabels(Map.of("app", "victim")).endSelector().endSpec().build()).create();
        await().until(() -> {
            var status = client.policy().v1().podDisruptionBudget().inNamespace(NS).withName("victim").get().getStatus();
            return status != null && status.getCurrentHealthy() != null && status.getCurrentHealthy() == 3;
        });
    }

    private Eviction wholeGang() {
        await().until(() -> pods.getStore().list().size() >= 3);
        List<PodPlacement> placements = pods.getStore().list().stream()
                .filter(pod -> pod.getMetadata().getName().startsWith("victim-"))
                .sorted(java.util.Comparator.comparing(pod -> pod.getMetadata().getName()))
                .map(pod -> new PodPlacement(KubeObjects.podInfo(pod), "node-0")).toList();
        return new Eviction(VICTIM, placements, true, PREEMPTOR, Eviction.Rule.RECLAIM,
                "reclaimed for podgroup default/preemptor");
    }

    private static Pod victimPod(String name) {
        return new PodBuilder().withNewMetadata().withName(name)
                .withLabels(Map.of(MusterLabels.POD_GROUP, "victim", "app", "victim")).endMetadata()
                .withNewSpec().withNodeName("node-0").withRestartPolicy("Never")
                .addNewContainer().withName("main").withImage("busybox").endContainer().endSpec().build();
    }

    private List<Pod> victims() {
        return client.pods().inNamespace(NS).withLabel("app", "victim").list().getItems();
    }

    private List<Event> events(String podGroup) {
        return client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> podGroup.equals(e.getInvolvedObject().getName())).toList();
    }
}
