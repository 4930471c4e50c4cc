package dev.muster.job;

import dev.muster.api.PodPreemption;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.batch.v1alpha1.LifecyclePolicy;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.muster.api.batch.v1alpha1.JobPhase.Pending;
import static dev.muster.api.batch.v1alpha1.JobPhase.Running;
import static dev.muster.job.Patience.PATIENCE;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Pods evicted by a preempting scheduler, with the production controller, PodGroup controller and gang scheduler.
 * The test plays the preemptor as kube-scheduler does it: it marks each victim with a {@code DisruptionTarget}
 * condition, then deletes it. Every job has policies that would restart it on an evicted or failed pod, to show
 * that preemption fires none of them.
 */
@Tag("emulator")
class PreemptionLocalClusterTest extends LocalClusterTestBase {
    private static final String PREEMPTOR = "preempted by default/urgent (priority 1000 over 0 in queue default)";

    private static Job guarded(String name, int replicas, int minAvailable) {
        Job job = newJob(name, minAvailable, runFor("600", task("worker", replicas, null)));
        List<LifecyclePolicy> policies = new ArrayList<>();
        for (String event : List.of("PodEvicted", "PodFailed")) {
            LifecyclePolicy restart = new LifecyclePolicy();
            restart.setEvent(event);
            restart.setAction("RestartJob");
            policies.add(restart);
        }
        job.getSpec().setPolicies(policies);
        return job;
    }

    /** Marks the pod as a victim (status subresource, with its resourceVersion), then evicts it. */
    private static void preempt(String pod) {
        await().atMost(PATIENCE).ignoreException(KubernetesClientException.class).until(() -> {
            Pod current = client.pods().withName(pod).get();
            List<PodCondition> conditions = new ArrayList<>(current.getStatus().getConditions());
            conditions.add(new PodConditionBuilder().withType(PodPreemption.DISRUPTION_TARGET).withStatus("True")
                    .withReason(PodPreemption.PREEMPTION_BY_SCHEDULER).withMessage(PREEMPTOR).build());
            current.getStatus().setConditions(conditions);
            client.pods().resource(current).updateStatus();
            return true;
        });
        client.pods().withName(pod).delete();
    }

    @Test
    void aWholePreemptedGangGoesBackToPendingKeepsItsPodGroupUsesNoRetryAndRunsAgainOnceReadmitted() {
        create(guarded("victim", 2, 2));
        await().atMost(PATIENCE).until(() -> status("victim"), in(Running));
        PodGroup group = podGroup("victim").orElseThrow();
        List<PodGroupPhase> groupPhases = new CopyOnWriteArrayList<>();
        List<String> jobStates = new CopyOnWriteArrayList<>();
        Map<String, String> uidsBefore = uids("victim");

        try (Watch groupWatch = watchPodGroup("victim", groupPhases); Watch jobWatch = watchJob("victim", jobStates)) {
            preempt("victim-worker-0");
            preempt("victim-worker-1");

            JobStatus preempted = await().atMost(PATIENCE).until(() -> status("victim"),
                    s -> PodPreemption.PREEMPTED.equals(s.getState().getReason()));
            assertThat(preempted.getState().getPhase()).isEqualTo(Pending);
            assertThat(preempted.getState().getMessage()).contains(PREEMPTOR);

            JobStatus again = await().atMost(PATIENCE).until(() -> status("victim"), in(Running));
            assertThat(again.getRetryCount()).isZero();
            assertThat(again.getVersion()).isEqualTo(0);
            assertThat(podGroup("victim").orElseThrow().getMetadata().getUid()).isEqualTo(group.getMetadata().getUid());
            Map<String, String> uidsAfter = uids("victim");
            assertThat(uidsAfter.keySet()).containsExactlyInAnyOrderElementsOf(uidsBefore.keySet());
            assertThat(uidsAfter.values()).doesNotContainAnyElementsOf(uidsBefore.values());
            await().atMost(PATIENCE).until(() -> groupPhases.contains(PodGroupPhase.Running)
                    && groupPhases.lastIndexOf(PodGroupPhase.Running) > groupPhases.indexOf(PodGroupPhase.Pending));
        }
        // The gang went back to Pending, was admitted again (Inqueue) and ran; never lost nor failed.
        assertThat(groupPhases).contains(PodGroupPhase.Pending, PodGroupPhase.Inqueue)
                .doesNotContain(PodGroupPhase.Unknown, PodGroupPhase.Failed);
        assertThat(jobStates).doesNotContain("Restarting", "Failed");
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(eventReasons("victim")).contains(PodPreemption.PREEMPTED)
                .doesNotContain("PodEvicted", "PodFailed"));
    }

    @Test
    void evictedSurplusMembersAreRecreatedWhileTheJobKeepsRunning() {
        create(guarded("surplus", 3, 2));
        await().atMost(PATIENCE).until(() -> status("surplus"), s -> phaseOf(s) == Running && s.getRunning() == 3);
        List<String> jobStates = new CopyOnWriteArrayList<>();
        String evictedUid = client.pods().withName("surplus-worker-2").get().getMetadata().getUid();

        try (Watch jobWatch = watchJob("surplus", jobStates)) {
            preempt("surplus-worker-2");

            await().atMost(PATIENCE).until(() -> {
                Pod replacement = client.pods().withName("surplus-worker-2").get();
                return replacement != null && !replacement.getMetadata().getUid().equals(evictedUid);
            });
            await().atMost(PATIENCE).until(() -> status("surplus"), s -> s.getRunning() == 3);
        }
        JobStatus status = status("surplus");
        assertThat(status.getState().getPhase()).isEqualTo(Running);
        assertThat(status.getRetryCount()).isZero();
        assertThat(status.getVersion()).isZero();
        assertThat(jobStates).containsOnly("Running");
        assertThat(eventReasons("surplus")).doesNotContain(PodPreemption.PREEMPTED, "PodEvicted", "PodFailed");
    }

    private static Map<String, String> uids(String job) {
        Map<String, String> uids = new TreeMap<>();
        pods(job).stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .forEach(p -> uids.put(p.getMetadata().getName(), p.getMetadata().getUid()));
        return uids;
    }

    private static Watch watchPodGroup(String name, List<PodGroupPhase> phases) {
        return client.resources(PodGroup.class).withName(name).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, PodGroup group) {
                if (group.getStatus() != null && group.getStatus().getPhase() != null
                        && (phases.isEmpty() || phases.get(phases.size() - 1) != group.getStatus().getPhase())) {
                    phases.add(group.getStatus().getPhase());
                }
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        });
    }

    private static Watch watchJob(String name, List<String> phases) {
        return client.resources(Job.class).withName(name).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Job job) {
                JobPhase phase = phaseOf(job.getStatus());
                if (phase != null && (phases.isEmpty() || !Objects.equals(phases.get(phases.size() - 1), phase.name()))) {
                    phases.add(phase.name());
                }
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        });
    }
}
