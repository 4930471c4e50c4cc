package dev.muster.manager.e2e;

import dev.muster.api.MusterLabels;
import dev.muster.api.PodPhase;
import dev.muster.api.PodPreemption;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.local.fault.FaultPlan;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.local.NetworkCut;
import dev.muster.manager.wiring.ManagerLifecycle;
import dev.muster.scheduler.GangScheduler;
import dev.muster.scheduler.QueuedGang;
import dev.muster.support.informer.SharedInformers;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.BeansException;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A workload of 56 jobs (gangs, jobs that fail and retry, dependsOn stages, a suspended-and-resumed job, and
 * two queues of which one reclaims from the other, so that gangs are preempted) runs once on a clean local
 * cluster, and again: with 10% of the manager's API requests failed (500, 429, 409, 504 after apply, watches
 * closed early); with the manager restarted at random points; and with two managers in a leader election
 * whose leader is cut off from the cluster mid-run. Every run must end in exactly the same states (phase,
 * reason, retries taken), with no pod created twice under one name, no pod moved from one node to another
 * (bound twice), no pod left running with the scheduler's preemption mark, and no gang broken.
 */
@Tag("emulator")
class FaultToleranceEndToEndTest {
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(3);
    private static final Set<JobPhase> FINAL = Set.of(JobPhase.Completed, JobPhase.Failed, JobPhase.Aborted,
            JobPhase.Terminated);

    /** End state of one job: phase, reason and retries taken. */
    record EndState(JobPhase phase, String reason, int retries) {
    }

    /**
     * What a run saw: the end states, every violation of the pod rules, the faults injected, and how many pods
     * the scheduler marked as preemption victims.
     */
    record Outcome(Map<String, EndState> endStates, List<String> violations, Map<String, Long> faults, int preempted) {
    }

    /**
     * Longest a running pod may keep the scheduler's preemption mark with no deletion under way: the leader's
     * sweep runs every minute and sets such a mark back; half a minute more covers a sweep whose write failed.
     */
    private static final Duration MARK_LEFT = Duration.ofSeconds(90);

    private static final List<String> QUEUES = List.of("""
            apiVersion: scheduling.muster.dev/v1alpha1
            kind: Queue
            metadata: {name: hog}
            spec: {weight: 1}
            """, """
            apiVersion: scheduling.muster.dev/v1alpha1
            kind: Queue
            metadata: {name: urgent}
            spec: {weight: 1, preemption: {reclaim: true, reclaimDelay: 1s}}
            """);

    /** A gang of 4 pods of {@code cpu} CPUs in a queue. */
    private static String queued(String name, String queue, int cpu, String seconds) {
        return """
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: %s, namespace: default}
                spec:
                  queue: %s
                  tasks:
                  - name: worker
                    replicas: 4
                    template:
                      metadata: {annotations: {local.muster.dev/run-seconds: "%s"}}
                      spec: {restartPolicy: Never, containers: [{name: w, image: busybox, resources: {requests: {cpu: "%d"}}}]}
                """.formatted(name, queue, seconds, cpu);
    }

    /**
     * Four gangs that take all the cluster's 64 CPUs for 20 s, far above their queue's fair share once others
     * ask: nothing else can start until they end or are reclaimed from.
     */
    private static List<String> hogs() {
        List<String> jobs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            jobs.add(queued("hog-" + i, "hog", 4, "20"));
        }
        return jobs;
    }

    /** Two gangs whose queue reclaims after 1 s from queues above their fair share. */
    private static List<String> urgent() {
        return List.of(queued("urgent-0", "urgent", 3, "2"), queued("urgent-1", "urgent", 3, "2"));
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
                      spec: {restartPolicy: Never, containers: [{name: w, image: busybox, resources: {requests: {cpu: "1"}}}]}
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
                      spec: {restartPolicy: Never, containers: [{name: w, image: busybox, resources: {requests: {cpu: "1"}}}]}
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
                      spec: {restartPolicy: Never, containers: [{name: p, image: busybox, resources: {requests: {cpu: "1"}}}]}
                  - name: train
                    replicas: 2
                    dependsOn: {name: [prepare]}
                    template:
                      metadata: {annotations: {local.muster.dev/run-seconds: "1"}}
                      spec: {restartPolicy: Never, containers: [{name: t, image: busybox, resources: {requests: {cpu: "1"}}}]}
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

    /**
     * How the manager runs while the workload does: one manager throughout, one that is restarted, or two
     * in a leader election whose leader is cut off. Closing the returned handle stops every manager left.
     */
    interface Operation {
        Managers start(LocalCluster cluster);
    }

    /**
     * The managers of one run.
     *
     * @param unexpectedExits exit codes asked for by managers that were meant to survive
     * @param acting          the manager that acts now, whose caches a failure message describes
     * @param stop            stops every manager left, checking what the operation promised on the way
     */
    record Managers(List<Integer> unexpectedExits, Supplier<ConfigurableApplicationContext> acting, Runnable stop)
            implements AutoCloseable {
        @Override
        public void close() {
            stop.run();
        }
    }

    /** One manager from start to end, as production runs. */
    static Managers oneManager(LocalCluster cluster) {
        List<Integer> exits = new CopyOnWriteArrayList<>();
        ConfigurableApplicationContext manager = ManagerOnLocalCluster.startManager(cluster, Map.of(), exits::add);
        return new Managers(exits, () -> manager, manager::close);
    }

    /**
     * A manager stopped and started again {@code restarts} times, each after a random 0.3 to 2 s, while the
     * workload runs; the local cluster keeps its state, as a real one does across a pod restart.
     */
    static Operation restarted(int restarts, long seed) {
        return cluster -> {
            Random random = new Random(seed);
            List<Integer> exits = new CopyOnWriteArrayList<>();
            AtomicReference<ConfigurableApplicationContext> current = new AtomicReference<>(
                    ManagerOnLocalCluster.startManager(cluster, Map.of(), exits::add));
            ScheduledExecutorService chaos = Executors.newSingleThreadScheduledExecutor();
            AtomicInteger done = new AtomicInteger();
            Runnable restart = new Runnable() {
                @Override
                public void run() {
                    current.get().close();
                    current.set(ManagerOnLocalCluster.startManager(cluster, Map.of(), exits::add));
                    if (done.incrementAndGet() < restarts) {
                        chaos.schedule(this, 300 + random.nextInt(1700), TimeUnit.MILLISECONDS);
                    }
                }
            };
            chaos.schedule(restart, 300 + random.nextInt(1700), TimeUnit.MILLISECONDS);
            return new Managers(exits, current::get, () -> {
                int restartedMidFlight = done.get();
                chaos.shutdown();
                await().atMost(RUN_TIMEOUT).until(() -> chaos.awaitTermination(1, TimeUnit.SECONDS));
                current.get().close();
                assertThat(restartedMidFlight).as("restarts before the workload ended").isEqualTo(restarts);
            });
        };
    }

    /**
     * Two managers in a leader election with short lease timings; the leader reaches the cluster through a
     * {@link NetworkCut}, which is cut after a random 1 to 4 s, so that for the cluster it is dead: it can
     * neither renew its lease nor write anything more. The standby must take over.
     */
    static Operation leaderCutOff(long seed) {
        return cluster -> {
            Map<String, Object> election = Map.of(
                    "muster.leader-election.lease-duration", "3s",
                    "muster.leader-election.renew-deadline", "2s",
                    "muster.leader-election.retry-period", "500ms");
            NetworkCut network = new NetworkCut(cluster);
            List<Integer> leaderExits = new CopyOnWriteArrayList<>();
            List<Integer> standbyExits = new CopyOnWriteArrayList<>();
            Map<String, Object> leaderProperties = new HashMap<>(election);
            leaderProperties.put("muster.leader-election.identity", "leader");
            leaderProperties.put("muster.kubernetes.master-url", network.url());
            ConfigurableApplicationContext leader =
                    ManagerOnLocalCluster.startManager(cluster, leaderProperties, leaderExits::add);
            await().atMost(RUN_TIMEOUT).until(() -> "leader".equals(leaseHolder(cluster)));
            Map<String, Object> standbyProperties = new HashMap<>(election);
            standbyProperties.put("muster.leader-election.identity", "standby");
            ConfigurableApplicationContext standby =
                    ManagerOnLocalCluster.startManager(cluster, standbyProperties, standbyExits::add);
            ScheduledExecutorService chaos = Executors.newSingleThreadScheduledExecutor();
            chaos.schedule(network::cut, 1000 + new Random(seed).nextInt(3000), TimeUnit.MILLISECONDS);
            return new Managers(standbyExits, () -> standby, () -> {
                chaos.shutdownNow();
                assertThat(leaseHolder(cluster)).as("the standby took over").isEqualTo("standby");
                assertThat(leaderExits).as("the cut-off leader asked to exit")
                        .containsExactly(ManagerLifecycle.EXIT_LEADERSHIP_LOST);
                leader.close();
                standby.close();
                network.close();
            });
        };
    }

    private static String leaseHolder(LocalCluster cluster) {
        Lease lease = cluster.client().resources(Lease.class).inNamespace("default").withName("muster-manager").get();
        return lease == null ? null : lease.getSpec().getHolderIdentity();
    }

    private static Outcome run(FaultPlan faults, Operation operation) {
        List<String> violations = new CopyOnWriteArrayList<>();
        Map<String, String> nodeOfPod = new ConcurrentHashMap<>();
        Map<String, String> uidOfName = new ConcurrentHashMap<>();
        // Running pods with the scheduler's mark and no deletion under way, by uid: since when, and their name.
        Map<String, Instant> markedSince = new ConcurrentHashMap<>();
        Map<String, String> nameOfUid = new ConcurrentHashMap<>();
        Set<String> everMarked = ConcurrentHashMap.newKeySet();
        Set<String> preemptedGangs = ConcurrentHashMap.newKeySet();
        try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withFaults(faults));
             Watch ignored = cluster.client().pods().inAnyNamespace().watch(new Watcher<>() {
                 @Override
                 public void eventReceived(Action action, Pod pod) {
                     String uid = pod.getMetadata().getUid();
                     String key = pod.getMetadata().getName() + "@" + pod.getMetadata().getAnnotations()
                             .getOrDefault(MusterLabels.JOB_VERSION, "?");
                     String gang = pod.getMetadata().getLabels().getOrDefault(MusterLabels.JOB_NAME, "?") + "@"
                             + pod.getMetadata().getAnnotations().getOrDefault(MusterLabels.JOB_VERSION, "?");
                     if (PodPreemption.isPreempted(pod)) {
                         everMarked.add(uid);
                         preemptedGangs.add(gang);
                     }
                     // A preempted gang's pods come back under the same names and version.
                     String before = uidOfName.put(key, uid);
                     if (before != null && !before.equals(uid) && action == Action.ADDED && !preemptedGangs.contains(gang)) {
                         violations.add("pod " + key + " created twice");
                     }
                     boolean markedRunning = action != Action.DELETED && PodPreemption.isPreempted(pod)
                             && pod.getMetadata().getDeletionTimestamp() == null && !PodPhase.isFinished(pod);
                     if (markedRunning) {
                         nameOfUid.put(uid, key);
                         markedSince.putIfAbsent(uid, Instant.now());
                     } else {
                         leftMarked(markedSince.remove(uid), key, Instant.now()).ifPresent(violations::add);
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
            try (Managers managers = operation.start(cluster)) {
                // Submitted by the observer's client: what is under test is the manager, not the submission.
                QUEUES.forEach(yaml -> cluster.client().resource(Serialization.unmarshal(yaml, Queue.class)).create());
                hogs().forEach(yaml -> cluster.client().resource(Serialization.unmarshal(yaml, Job.class)).create());
                // Started (under faults, the first may finish before the last starts): then the others are submitted.
                await().atMost(RUN_TIMEOUT).until(() -> IntStream.range(0, 4).mapToObj(i -> phase(cluster, "hog-" + i))
                        .allMatch(phase -> phase == JobPhase.Running || phase == JobPhase.Completed));
                List<String> workload = new ArrayList<>(urgent());
                workload.addAll(workload());
                workload.forEach(yaml -> cluster.client().resource(Serialization.unmarshal(yaml, Job.class)).create());
                await().atMost(RUN_TIMEOUT).until(() -> phase(cluster, "suspended-1") == JobPhase.Aborted);
                for (String name : List.of("suspended-0", "suspended-1")) {
                    cluster.client().resources(Job.class).inNamespace("default").withName(name)
                            .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"suspend\":false}}");
                }
                await().atMost(RUN_TIMEOUT).untilAsserted(() -> assertThat(unfinished(cluster))
                        .as(() -> "what the acting manager knows: " + knownTo(managers.acting().get(), cluster))
                        .isEmpty());
                Map<String, EndState> endStates = new TreeMap<>();
                for (Job job : cluster.client().resources(Job.class).inNamespace("default").list().getItems()) {
                    endStates.put(job.getMetadata().getName(), new EndState(phaseOf(job),
                            job.getStatus().getState().getReason(), job.getStatus().getRetryCount()));
                }
                assertThat(managers.unexpectedExits()).as("no surviving manager asked to exit").isEmpty();
                Instant end = Instant.now();
                markedSince.forEach((uid, since) -> leftMarked(since, nameOfUid.get(uid), end).ifPresent(violations::add));
                Counter broken = managers.acting().get().getBean(MeterRegistry.class)
                        .find("muster.scheduler.preemption.gangs.broken").counter();
                if (broken != null && broken.count() > 0) {
                    violations.add(broken.count() + " gang(s) broken by a partial eviction");
                }
                return new Outcome(endStates, violations, cluster.faultsInjected(), everMarked.size());
            }
        }
    }

    /** A violation if a pod kept the preemption mark, running and not being deleted, for longer than allowed. */
    private static Optional<String> leftMarked(Instant since, String pod, Instant until) {
        if (since == null || Duration.between(since, until).compareTo(MARK_LEFT) <= 0) {
            return Optional.empty();
        }
        return Optional.of("pod " + pod + " ran with the preemption mark and no eviction for "
                + Duration.between(since, until).toSeconds() + " s");
    }

    /** Jobs not in a final phase, each with its status, for the failure message. */
    private static List<String> unfinished(LocalCluster cluster) {
        return unfinishedJobs(cluster).stream()
                .map(j -> j.getMetadata().getName() + " (rv " + j.getMetadata().getResourceVersion() + "): "
                        + (j.getStatus() == null || j.getStatus().getState() == null ? "no state yet"
                        : phaseOf(j) + " " + j.getStatus().getState().getMessage()
                        + " running=" + j.getStatus().getRunning() + " succeeded=" + j.getStatus().getSucceeded())
                        + "; its PodGroup: " + podGroupOf(cluster, j))
                .toList();
    }

    private static List<Job> unfinishedJobs(LocalCluster cluster) {
        return cluster.client().resources(Job.class).inNamespace("default").list().getItems().stream()
                .filter(j -> phaseOf(j) == null || !FINAL.contains(phaseOf(j)))
                .toList();
    }

    /** For each unfinished job: whether the manager's informers hold it and its PodGroup, and its queue entry. */
    private static String knownTo(ConfigurableApplicationContext manager, LocalCluster cluster) {
        try {
            SharedInformers informers = manager.getBean(SharedInformers.class);
            List<QueuedGang> queue = manager.getBean(GangScheduler.class).queue();
            return unfinishedJobs(cluster).stream()
                    .map(j -> {
                        String key = "default/" + j.getMetadata().getName();
                        Job cached = informers.informer(Job.class).getStore().getByKey(key);
                        PodGroup group = informers.informer(PodGroup.class).getStore().getByKey(key);
                        return key + ": cached job rv " + (cached == null ? null : cached.getMetadata().getResourceVersion())
                                + ", cached PodGroup rv " + (group == null ? null : group.getMetadata().getResourceVersion())
                                + ", queue " + queue.stream().filter(q -> q.name().equals(j.getMetadata().getName()))
                                .map(q -> q.state() + " " + q.message()).toList();
                    }).toList().toString();
        } catch (IllegalStateException | BeansException closed) {
            // Described on every failed poll, also while a restart replaces the manager: a context being closed
            // refuses beans with either (BeanCreationNotAllowedException, or a failed instantiation mid-destruction).
            return "(the acting manager is being replaced)";
        }
    }

    private static String podGroupOf(LocalCluster cluster, Job job) {
        PodGroup group = cluster.client().resources(PodGroup.class).inNamespace("default")
                .withName(job.getMetadata().getName()).get();
        return group == null ? "none" : "rv " + group.getMetadata().getResourceVersion() + " phase "
                + (group.getStatus() == null ? null : group.getStatus().getPhase());
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

    /** The end states without faults, computed once for every test to compare against. */
    private static synchronized Outcome clean() {
        if (clean == null) {
            clean = run(FaultPlan.NONE, FaultToleranceEndToEndTest::oneManager);
            assertThat(clean.endStates()).hasSize(56);
            assertThat(clean.preempted()).as("pods preempted").isPositive();
            assertThat(clean.endStates().values()).extracting(EndState::phase).doesNotContain(JobPhase.Aborted);
            assertThat(clean.violations()).isEmpty();
        }
        return clean;
    }

    private static Outcome clean;

    @Test
    void tenPercentOfRequestsFailingChangesNoEndState() {
        Outcome faulty = run(new FaultPlan(0.10, 20261124), FaultToleranceEndToEndTest::oneManager);

        System.out.printf("fault tolerance: %d jobs; faults injected %s; %d pods preempted (clean run: %d); end states %s%n",
                faulty.endStates().size(), faulty.faults(), faulty.preempted(), clean().preempted(),
                summary(faulty.endStates()));
        assertThat(faulty.faults().values().stream().mapToLong(Long::longValue).sum()).isGreaterThan(100);
        assertThat(faulty.preempted()).as("pods preempted under faults").isPositive();
        assertThat(faulty.endStates()).isEqualTo(clean().endStates());
        assertThat(faulty.violations()).isEmpty();
    }

    @Test
    void restartingTheManagerMidFlightChangesNoEndStateAndConsumesNoRetry() {
        Outcome restarted = run(FaultPlan.NONE, restarted(3, 7));

        System.out.printf("restarts: %d jobs, 3 restarts; end states %s%n", restarted.endStates().size(),
                summary(restarted.endStates()));
        assertThat(restarted.endStates()).isEqualTo(clean().endStates());
        assertThat(restarted.violations()).isEmpty();
    }

    @Test
    void aLeaderCutOffMidRunIsReplacedWithNoDoubleBindingAndNoJobLost() {
        Outcome failedOver = run(FaultPlan.NONE, leaderCutOff(11));

        System.out.printf("leader change: %d jobs; end states %s%n", failedOver.endStates().size(),
                summary(failedOver.endStates()));
        assertThat(failedOver.endStates()).isEqualTo(clean().endStates());
        assertThat(failedOver.violations()).isEmpty();
    }

    private static Map<String, Long> summary(Map<String, EndState> states) {
        Map<String, Long> counts = new TreeMap<>();
        states.values().forEach(s -> counts.merge(s.phase() + "/" + s.reason() + "/retries=" + s.retries(), 1L, Long::sum));
        return counts;
    }
}
