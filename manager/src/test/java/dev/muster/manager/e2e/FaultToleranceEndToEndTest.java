package dev.muster.manager.e2e;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.local.FaultPlan;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A workload of 50 jobs (gangs, jobs that fail and retry, dependsOn stages, a suspended-and-resumed job) runs
 * once on a clean local cluster and once with 10% of the manager's API requests failed (500, 429, 409, 504
 * after apply, watches closed early). Both runs must end in exactly the same states, with no pod created twice
 * under one name and no pod moved from one node to another.
 */
class FaultToleranceEndToEndTest {
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(3);
    private static final Set<JobPhase> FINAL = Set.of(JobPhase.Completed, JobPhase.Failed, JobPhase.Aborted,
            JobPhase.Terminated);

    /** End state of one job: phase, reason and retries taken. */
    record EndState(JobPhase phase, String reason, int retries) {
    }

    /** What a run saw: the end states, and every violation of the pod rules. */
    record Outcome(Map<String, EndState> endStates, List<String> violations, Map<String, Long> faults) {
    }

    private static String gang(String name, int workers) {
        return """
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: %s, namespace: default}
                spec:
                  tasks:
                  - name: worker
                    replicas: %d
                    template:
                      metadata: {annotations: {local.muster.dev/run-seconds: "1"}}
                      spec: {containers: [{name: w, image: busybox, resources: {requests: {cpu: "1"}}}]}
                """.formatted(name, workers);
    }

    private static String failing(String name) {
        return """
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: %s, namespace: default}
                spec:
                  maxRetry: 2
                  policies: [{event: PodFailed, action: RestartJob}]
                  tasks:
                  - name: worker
                    replicas: 2
                    template:
                      metadata: {annotations: {local.muster.dev/run-seconds: "0.5", local.muster.dev/exit-code: "3"}}
                      spec: {containers: [{name: w, image: busybox, resources: {requests: {cpu: "1"}}}]}
                """.formatted(name);
    }

    private static String staged(String name) {
        return """
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: %s, namespace: default}
                spec:
                  tasks:
                  - name: prepare
                    replicas: 1
                    template:
                      metadata: {annotations: {local.muster.dev/run-seconds: "0.5"}}
                      spec: {containers: [{name: p, image: busybox, resources: {requests: {cpu: "1"}}}]}
                  - name: train
                    replicas: 2
                    dependsOn: {name: [prepare]}
                    template:
                      metadata: {annotations: {local.muster.dev/run-seconds: "1"}}
                      spec: {containers: [{name: t, image: busybox, resources: {requests: {cpu: "1"}}}]}
                """.formatted(name);
    }

    private static String suspended(String name) {
        return gang(name, 2).replace("spec:\n  tasks:", "spec:\n  suspend: true\n  tasks:");
    }

    private static List<String> workload() {
        List<String> jobs = new ArrayList<>();
        for (int i = 0; i < 35; i++) {
            jobs.add(gang("gang-" + i, 1 + i % 4));
        }
        for (int i = 0; i < 8; i++) {
            jobs.add(failing("failing-" + i));
        }
        for (int i = 0; i < 5; i++) {
            jobs.add(staged("staged-" + i));
        }
        jobs.add(suspended("suspended-0"));
        jobs.add(suspended("suspended-1"));
        return jobs;
    }

    private static Outcome run(FaultPlan faults) {
        List<String> violations = new CopyOnWriteArrayList<>();
        Map<String, String> nodeOfPod = new ConcurrentHashMap<>();
        Map<String, String> uidOfName = new ConcurrentHashMap<>();
        try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withFaults(faults));
             Watch ignored = cluster.client().pods().inAnyNamespace().watch(new Watcher<>() {
                 @Override
                 public void eventReceived(Action action, Pod pod) {
                     String uid = pod.getMetadata().getUid();
                     String key = pod.getMetadata().getName() + "@" + pod.getMetadata().getAnnotations()
                             .getOrDefault(MusterLabels.JOB_VERSION, "?");
                     String before = uidOfName.putIfAbsent(key, uid);
                     if (before != null && !before.equals(uid) && action == Action.ADDED) {
                         violations.add("pod " + key + " created twice");
                     }
                     String node = pod.getSpec().getNodeName();
                     if (node != null) {
                         String first = nodeOfPod.putIfAbsent(uid, node);
                         if (first != null && !first.equals(node)) {
                             violations.add("pod " + key + " moved from " + first + " to " + node);
                         }
                     }
                 }

                 @Override
                 public void onClose(WatcherException cause) {
                 }
             })) {
            List<Integer> exits = new CopyOnWriteArrayList<>();
            try (ConfigurableApplicationContext manager = ManagerOnLocalCluster.startManager(cluster, Map.of(), exits::add)) {
                List<String> workload = workload();
                // Submitted by the observer's client: what is under test is the manager, not the submission.
                workload.forEach(yaml -> cluster.client().resource(Serialization.unmarshal(yaml, Job.class)).create());
                await().atMost(RUN_TIMEOUT).until(() -> phase(cluster, "suspended-1") == JobPhase.Aborted);
                for (String name : List.of("suspended-0", "suspended-1")) {
                    cluster.client().resources(Job.class).inNamespace("default").withName(name)
                            .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"suspend\":false}}");
                }
                await().atMost(RUN_TIMEOUT).untilAsserted(() -> assertThat(unfinished(cluster)).isEmpty());
                Map<String, EndState> endStates = new TreeMap<>();
                for (Job job : cluster.client().resources(Job.class).inNamespace("default").list().getItems()) {
                    endStates.put(job.getMetadata().getName(), new EndState(phaseOf(job),
                            job.getStatus().getState().getReason(), job.getStatus().getRetryCount()));
                }
                assertThat(exits).as("the manager never asked to exit").isEmpty();
                return new Outcome(endStates, violations, cluster.faultsInjected());
            }
        }
    }

    /** Jobs not in a final phase, each with its status, for the failure message. */
    private static List<String> unfinished(LocalCluster cluster) {
        return cluster.client().resources(Job.class).inNamespace("default").list().getItems().stream()
                .filter(j -> phaseOf(j) == null || !FINAL.contains(phaseOf(j)))
                .map(j -> j.getMetadata().getName() + " (rv " + j.getMetadata().getResourceVersion() + "): "
                        + (j.getStatus() == null || j.getStatus().getState() == null ? "no state yet"
                        : phaseOf(j) + " " + j.getStatus().getState().getMessage()
                        + " running=" + j.getStatus().getRunning() + " succeeded=" + j.getStatus().getSucceeded()))
                .toList();
    }

    private static JobPhase phase(LocalCluster cluster, String name) {
        try {
            return phaseOf(cluster.client().resources(Job.class).inNamespace("default").withName(name).get());
        } catch (KubernetesClientException e) {
            return null;
        }
    }

    private static JobPhase phaseOf(Job job) {
        return job == null || job.getStatus() == null || job.getStatus().getState() == null ? null
                : job.getStatus().getState().getPhase();
    }

    @Test
    void tenPercentOfRequestsFailingChangesNoEndState() {
        Outcome clean = run(FaultPlan.NONE);
        Outcome faulty = run(new FaultPlan(0.10, 20261124));

        System.out.printf("fault tolerance: %d jobs; faults injected %s; end states %s%n", clean.endStates().size(),
                faulty.faults(), summary(faulty.endStates()));
        assertThat(clean.endStates()).hasSize(50);
        assertThat(clean.endStates().values()).extracting(EndState::phase).doesNotContain(JobPhase.Aborted);
        assertThat(faulty.faults().values().stream().mapToLong(Long::longValue).sum()).isGreaterThan(100);
        assertThat(faulty.endStates()).isEqualTo(clean.endStates());
        assertThat(clean.violations()).isEmpty();
        assertThat(faulty.violations()).isEmpty();
    }

    private static Map<String, Long> summary(Map<String, EndState> states) {
        Map<String, Long> counts = new TreeMap<>();
        states.values().forEach(s -> counts.merge(s.phase() + "/" + s.reason() + "/retries=" + s.retries(), 1L, Long::sum));
        return counts;
    }
}
