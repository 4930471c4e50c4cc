package dev.muster.local.node;

import com.fasterxml.jackson.databind.JsonNode;
import dev.muster.api.MusterLabels;
import dev.muster.api.PodPhase;
import dev.muster.local.dra.PodResourceClaims;
import dev.muster.local.dra.SimulatedGpuDriver;
import dev.muster.local.informer.InformerSync;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.HttpURLConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A kubelet for every Node in the cluster, driven only through the API like a real one: it watches nodes and pods
 * with informers, completes the status of nodes that lack one, and moves each pod bound to a node through Pending →
 * Running ({@code podStartDelay} after binding) → Succeeded or Failed (after {@code local.muster.dev/run-seconds},
 * with exit code {@code local.muster.dev/exit-code}). Pods with restart policy Always run until deleted unless they
 * set run-seconds. Containers that exit under restart policy Always, or non-zero under OnFailure, are restarted in
 * place instead, the pod staying Running: at once after a first exit, then after a back-off that doubles from
 * {@code restartBackOff} ({@code CrashLoopBackOff}, recorded as the kubelet's Warning Event {@code BackOff}), and
 * each run takes run-seconds again and ends with the same exit code. A pod deleted gracefully (its
 * {@code deletionTimestamp} set) is stopped as a real kubelet stops it: its containers exit {@code podStopDelay}
 * later (never after the grace period), as on SIGTERM ({@link PodStatuses#stopped}), and the kubelet then deletes
 * it with grace period 0. Status is written through the status subresource with the resourceVersion it was computed
 * from, and the final deletion carries the resourceVersion as a precondition; on a conflict the pod is read again.
 * A pod with DRA claims starts only once each claim it names is allocated and reserved for it, as a kubelet
 * prepares a pod's claims before its containers; until then it stays Pending with its containers waiting
 * ({@code ContainerCreating}, the message saying which claim is not ready). Init containers run before the
 * containers, one after another, each for {@link #INIT_SECONDS} and exiting with {@link #INIT_EXIT_CODE}, the pod
 * Pending meanwhile; a failing one fails the pod under restart policy Never and is restarted with the same back-off
 * under the others. Sidecars (init containers with restart policy Always) start in their turn, run beside the
 * containers and are stopped when those end for good.
 */
public final class SimulatedKubelet implements AutoCloseable {
    /**
     * Annotation (or label) of a pod: the seconds each of its init containers runs, sidecars aside; 0 when not
     * given, so that they are through as the pod starts.
     */
    public static final String INIT_SECONDS = MusterLabels.LOCAL_INIT_SECONDS;
    /**
     * Annotation (or label) of a pod: the exit code of each of its init containers, sidecars aside; 0 when not
     * given. A non-zero one stops the pod at its first init container.
     */
    public static final String INIT_EXIT_CODE = MusterLabels.LOCAL_INIT_EXIT_CODE;
    private static final Logger log = LoggerFactory.getLogger(SimulatedKubelet.class);
    private static final int MAX_CONFLICT_RETRIES = 10;
    private static final Duration STOP_RETRY = Duration.ofSeconds(1);
    /** Status writes block on HTTP; a few threads keep a burst of pod starts from queueing behind each other. */
    private static final int THREADS = 4;
    /** Pods by the {@code namespace/name} of each claim they name, so that a claim's change finds its pods at once. */
    private static final String CLAIM_INDEX = "claims";

    private final KubernetesClient client;
    private final KubeletTimings timings;
    private final SimulatedNodes nodes;
    private final KubeletEvents events;
    private final ScheduledExecutorService timers;
    /** The next transition of each pod (by uid) that has one pending; a pod never has two. */
    private final Map<String, ScheduledFuture<?>> transitions = new ConcurrentHashMap<>();
    /** The restart back-off of each pod (by uid) whose containers have exited to be restarted in place. */
    private final Map<String, CrashLoop> crashLoops = new ConcurrentHashMap<>();
    /** The uids of the pods being stopped for their deletion, each stopped once. */
    private final Set<String> stopping = ConcurrentHashMap.newKeySet();
    /** The names of the Nodes that were deleted, and not created again, since this kubelet started. */
    private final Set<String> lostNodes = ConcurrentHashMap.newKeySet();
    /** Numbers pod addresses in 10.128.0.0/9. */
    private final AtomicInteger podAddresses = new AtomicInteger();
    private final SharedIndexInformer<Node> nodeInformer;
    private final SharedIndexInformer<Pod> podInformer;
    /** DRA's ResourceClaims, which must be allocated and reserved for a pod before it starts. */
    private final SharedIndexInformer<GenericKubernetesResource> claimInformer;

    private SimulatedKubelet(KubernetesClient client, KubeletTimings timings, SimulatedNodes nodes) {
        this.client = client;
        this.timings = timings;
        this.nodes = nodes;
        this.events = new KubeletEvents(client);
        AtomicInteger threads = new AtomicInteger();
        this.timers = Executors.newScheduledThreadPool(THREADS, r -> {
            Thread thread = new Thread(r, "simulated-kubelet-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        this.nodeInformer = client.nodes().runnableInformer(0);
        this.podInformer = client.pods().inAnyNamespace().runnableInformer(0);
        this.claimInformer = client.genericKubernetesResources(SimulatedGpuDriver.API_VERSION, "ResourceClaim")
                .inAnyNamespace().runnableInformer(0);
        this.podInformer.addIndexers(Map.of(CLAIM_INDEX, pod -> PodResourceClaims.entries(pod).stream()
                .filter(entry -> entry.claimName() != null)
                .map(entry -> pod.getMetadata().getNamespace() + "/" + entry.claimName()).toList()));
    }

    /**
     * Starts a kubelet that uses {@code client} (and closes it when closed), once both informers have listed.
     */
    public static SimulatedKubelet start(KubernetesClient client, KubeletTimings timings, SimulatedNodes nodes) {
        SimulatedKubelet kubelet = new SimulatedKubelet(client, timings, nodes);
        kubelet.nodeInformer.addEventHandler(kubelet.new NodeHandler());
        kubelet.podInformer.addEventHandler(kubelet.new PodHandler());
        kubelet.claimInformer.addEventHandler(kubelet.new ClaimHandler());
        InformerSync.awaitAll("simulated kubelet", kubelet::close,
                kubelet.claimInformer, kubelet.nodeInformer, kubelet.podInformer);
        return kubelet;
    }

    @Override
    public void close() {
        podInformer.close();
        nodeInformer.close();
        claimInformer.close();
        timers.shutdownNow();
        client.close();
    }

    private void completeStatus(Node node) {
        if (SimulatedNodes.hasCompleteStatus(node)) {
            return;
        }
        try {
            client.resource(nodes.withCompleteStatus(node)).updateStatus();
            log.info("node {} joined with a simulated status", node.getMetadata().getName());
        } catch (KubernetesClientException e) {
            // A conflict means a newer version is on its way to the informer, which calls us again.
            log.debug("could not complete status of node {}: {}", node.getMetadata().getName(), e.getMessage());
        }
    }

    /** Pods may be bound to a node before it exists; they start when it appears. */
    private void runPodsBoundTo(Node node) {
        podInformer.getStore().list().stream()
                .filter(pod -> node.getMetadata().getName().equals(pod.getSpec().getNodeName()))
                .forEach(this::reconcilePod);
    }

    /** Schedules the pod's next transition if it runs on one of our nodes and none is scheduled yet. */
    private void reconcilePod(Pod pod) {
        String nodeName = pod.getSpec().getNodeName();
        if (nodeName == null || nodeName.isEmpty()) {
            return;
        }
        if (nodeInformer.getStore().getByKey(nodeName) == null) {
            collectIfOrphaned(pod);
            return;
        }
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            if (stopping.add(uid(pod))) {
                cancel(transitions.remove(uid(pod)));
                schedule(stopDelay(pod), () -> stop(pod));
            }
            return;
        }
        PodPhase phase = PodPhase.of(pod);
        if (phase == PodPhase.Pending) {
            transitions.computeIfAbsent(uid(pod), uid -> schedule(timings.podStartDelay(), () -> start(pod)));
        } else if (phase == PodPhase.Running && !"Never".equals(pod.getSpec().getRestartPolicy())
                && PodStatuses.awaitsRestart(pod)) {
            // Exited before this kubelet, whose back-off is lost as a restarted kubelet's is: it restarts at once.
            transitions.computeIfAbsent(uid(pod), uid -> schedule(Duration.ZERO, () -> restart(pod)));
        } else if (phase == PodPhase.Running) {
            // Running without a timer: started before this kubelet, so it finishes on the original schedule.
            runTime(pod).ifPresent(runTime -> transitions.computeIfAbsent(uid(pod), uid -> {
                Instant started = PodStatuses.runningSince(pod).orElseGet(Instant::now);
                Duration left = Duration.between(Instant.now(), started.plus(runTime));
                return schedule(left.isNegative() ? Duration.ZERO : left, () -> finish(pod));
            }));
        }
    }

    /**
     * kube-controller-manager's pod garbage collector deletes the pods of a Node that is gone with grace period 0,
     * since no kubelet will ever stop them. Here it does so for the Terminating pods of a Node this kubelet ran and
     * that was deleted, at once rather than after PodGC's quarantine of 40 s; a pod that was not deleted keeps its
     * last status, so that controllers see it lost, and a pod bound to a name that never was a Node is left alone.
     */
    private void collectIfOrphaned(Pod pod) {
        if (pod.getMetadata().getDeletionTimestamp() != null && lostNodes.contains(pod.getSpec().getNodeName())
                && stopping.add(uid(pod))) {
            cancel(transitions.remove(uid(pod)));
            schedule(Duration.ZERO, () -> deleteNow(pod));
        }
    }

    private void start(Pod pod) {
        Optional<String> unprepared = PodResourceClaims.notPrepared(latest(pod), name -> claim(pod, name));
        if (unprepared.isPresent()) {
            waitForClaims(pod, unprepared.get());
            return;
        }
        Node node = nodeInformer.getStore().getByKey(pod.getSpec().getNodeName());
        if (node == null) {
            transitions.remove(uid(pod));
            return;
        }
        String hostIp = SimulatedNodes.internalIp(node);
        // Init containers that take no time and succeed are through as the pod starts: one status write, not one each.
        int init = initRunTime(pod).isZero() && initExitCode(pod) == 0 ? -1 : PodStatuses.nextInit(pod, 0);
        if (init >= 0) {
            runInit(pod, init, current -> PodPhase.of(current) == PodPhase.Pending
                    ? PodStatuses.initRunning(current, hostIp, nextPodIp(), init, Instant.now())
                    : null);
        } else {
            runContainers(pod, current -> PodPhase.of(current) == PodPhase.Pending
                    ? PodStatuses.running(current, hostIp, nextPodIp(), Instant.now())
                    : null);
        }
    }

    /** Starts the pod's containers with {@code change} and schedules their exit after run-seconds. */
    private void runContainers(Pod pod, Function<Pod, PodStatus> change) {
        Optional<Pod> started = writeStatus(pod, change);
        Optional<Duration> runTime = started.flatMap(this::runTime);
        if (started.isPresent()) {
            log.info("pod {} started on {}{}", name(pod), pod.getSpec().getNodeName(),
                    runTime.map(t -> ", runs for " + t.toMillis() + " ms").orElse(", runs until deleted"));
        }
        if (runTime.isPresent()) {
            transitions.put(uid(pod), schedule(runTime.get(), () -> finish(started.get())));
        } else {
            transitions.remove(uid(pod));
        }
    }

    /**
     * Starts the pod's init container {@code index} with {@code change}, which must leave it running, and schedules
     * its exit after init-seconds.
     */
    private void runInit(Pod pod, int index, Function<Pod, PodStatus> change) {
        Optional<Pod> running = writeStatus(pod, change);
        if (running.isPresent()) {
            Duration runTime = initRunTime(pod);
            log.info("pod {} runs init container {} for {} ms", name(pod),
                    pod.getSpec().getInitContainers().get(index).getName(), runTime.toMillis());
            transitions.put(uid(pod), schedule(runTime, () -> exitInit(running.get(), index)));
        } else {
            transitions.remove(uid(pod));
        }
    }

    /**
     * Ends the run of the pod's init container {@code index} with init-exit-code: on 0 the next init container
     * starts, or the containers once none is left; otherwise the pod fails under restart policy Never, and the init
     * container is restarted after a back-off under the others, as a kubelet restarts one.
     */
    private void exitInit(Pod pod, int index) {
        int exitCode = initExitCode(pod);
        Instant now = Instant.now();
        Predicate<Pod> stillRuns = current -> PodPhase.of(current) == PodPhase.Pending
                && PodStatuses.initRuns(current, index);
        if (exitCode == 0) {
            int next = PodStatuses.nextInit(pod, index + 1);
            if (next >= 0) {
                runInit(pod, next, current -> stillRuns.test(current)
                        ? PodStatuses.initRunning(current, null, null, next, now) : null);
            } else {
                runContainers(pod, current -> stillRuns.test(current)
                        ? PodStatuses.running(current, null, null, now) : null);
            }
            return;
        }
        String container = pod.getSpec().getInitContainers().get(index).getName();
        if ("Never".equals(pod.getSpec().getRestartPolicy())) {
            writeStatus(pod, current -> stillRuns.test(current) ? PodStatuses.initFailed(current, index, exitCode, now) : null)
                    .ifPresent(failed -> log.info("pod {} failed: init container {} exited with exit code {}",
                            name(pod), container, exitCode));
            transitions.remove(uid(pod));
            crashLoops.remove(uid(pod));
            events.forget(uid(pod));
            return;
        }
        Duration backOff = backOffAfterExit(uid(pod), now);
        Optional<Pod> exited = writeStatus(pod, current -> stillRuns.test(current)
                ? PodStatuses.initExitedToRestart(current, index, exitCode, backOff, now) : null);
        if (exited.isEmpty()) {
            transitions.remove(uid(pod));
            return;
        }
        log.info("pod {}: init container {} exited with exit code {}, restarting {}", name(pod), container, exitCode,
                backOff.isZero() ? "at once" : "after a back-off of " + backOff.toMillis() + " ms");
        transitions.put(uid(pod), schedule(backOff, () -> runInit(exited.get(), index,
                current -> PodPhase.of(current) == PodPhase.Pending && PodStatuses.initAwaitsRestart(current, index)
                        ? PodStatuses.initRestarted(current, index, Instant.now()) : null)));
        if (!backOff.isZero()) {
            events.backOff(exited.get(), container, "spec.initContainers{" + container + "}");
        }
    }

    /**
     * As a kubelet that cannot prepare a pod's DRA claims: the pod stays Pending with its containers waiting
     * ({@code ContainerCreating}, the reason as message) until a change of the pod or of a claim starts it again.
     */
    private void waitForClaims(Pod pod, String reason) {
        transitions.remove(uid(pod));
        Optional<Pod> waiting = writeStatus(pod, current -> {
            if (PodPhase.of(current) != PodPhase.Pending) {
                return null;
            }
            PodStatus status = PodStatuses.containersCreating(current, reason);
            return status == current.getStatus() ? null : status;
        });
        if (waiting.isPresent()) {
            log.info("pod {} waits for its resource claims: {}", name(pod), reason);
        }
    }

    /**
     * The informer's version of the pod if it has the same uid, which has what was written since it was queued: the
     * claims recorded, annotations added.
     */
    private Pod latest(Pod pod) {
        Pod latest = podInformer.getStore().get(pod);
        return latest != null && uid(latest).equals(uid(pod)) ? latest : pod;
    }

    private Optional<JsonNode> claim(Pod pod, String name) {
        return Optional.ofNullable(claimInformer.getStore().getByKey(pod.getMetadata().getNamespace() + "/" + name))
                .map(claim -> Serialization.jsonMapper().valueToTree(claim));
    }

    private void finish(Pod pod) {
        // Read as the container ends, not as it started: an exit code annotated on a running pod is how it ends.
        int exitCode = exitCode(latest(pod));
        if (restartsAfter(pod, exitCode)) {
            exitToRestart(pod, exitCode);
            return;
        }
        writeStatus(pod, current -> PodPhase.of(current) == PodPhase.Running
                ? PodStatuses.terminated(current, exitCode, Instant.now())
                : null)
                .ifPresent(finished -> log.info("pod {} finished with exit code {}: {}", name(pod), exitCode,
                        finished.getStatus().getPhase()));
        transitions.remove(uid(pod));
        crashLoops.remove(uid(pod));
        events.forget(uid(pod));
    }

    /** Whether the kubelet restarts the pod's containers in place when they exit with {@code exitCode}. */
    private static boolean restartsAfter(Pod pod, int exitCode) {
        String policy = pod.getSpec().getRestartPolicy();
        return "Always".equals(policy) || "OnFailure".equals(policy) && exitCode != 0;
    }

    /** Writes the pod's containers as exited and schedules their restart after the back-off the exit earns. */
    private void exitToRestart(Pod pod, int exitCode) {
        Instant now = Instant.now();
        Duration backOff = backOffAfterExit(uid(pod), now);
        Optional<Pod> exited = writeStatus(pod, current -> PodPhase.of(current) == PodPhase.Running
                && !PodStatuses.awaitsRestart(current)
                ? PodStatuses.exitedToRestart(current, exitCode, backOff, now)
                : null);
        if (exited.isPresent()) {
            log.info("pod {} exited with exit code {}, restarting {}", name(pod), exitCode,
                    backOff.isZero() ? "at once" : "after a back-off of " + backOff.toMillis() + " ms");
            transitions.put(uid(pod), schedule(backOff, () -> restart(exited.get())));
            if (!backOff.isZero()) {
                pod.getSpec().getContainers().forEach(c ->
                        events.backOff(exited.get(), c.getName(), "spec.containers{" + c.getName() + "}"));
            }
        } else {
            transitions.remove(uid(pod));
        }
    }

    /**
     * The kubelet's back-off before restarting a container that exited at {@code exit}: none after a first exit
     * or after one that ends a run longer than {@code restartBackOffReset}; else the back-off the previous exit
     * set, which the next exit doubles up to {@code maxRestartBackOff}.
     */
    private Duration backOffAfterExit(String uid, Instant exit) {
        CrashLoop previous = crashLoops.get(uid);
        boolean fresh = previous == null
                || Duration.between(previous.lastExit(), exit).compareTo(timings.restartBackOffReset()) > 0;
        Duration wait = fresh ? Duration.ZERO : previous.nextBackOff();
        Duration doubled = fresh ? timings.restartBackOff() : previous.nextBackOff().multipliedBy(2);
        crashLoops.put(uid, new CrashLoop(min(doubled, timings.maxRestartBackOff()), exit));
        return wait;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /** Starts the exited containers of the pod again; they run for run-seconds once more. */
    private void restart(Pod pod) {
        Optional<Pod> restarted = writeStatus(pod, current -> PodPhase.of(current) == PodPhase.Running
                && PodStatuses.awaitsRestart(current)
                ? PodStatuses.restarted(current, Instant.now())
                : null);
        Optional<Duration> runTime = restarted.flatMap(this::runTime);
        restarted.ifPresent(p -> log.info("pod {} restarted its containers", name(pod)));
        if (runTime.isPresent()) {
            transitions.put(uid(pod), schedule(runTime.get(), () -> finish(restarted.get())));
        } else {
            transitions.remove(uid(pod));
        }
    }

    /**
     * Stops the containers of a pod being deleted, unless they have already exited, and deletes the pod with grace
     * period 0, which removes it unless finalizers remain.
     */
    private void stop(Pod pod) {
        try {
            Optional<Pod> stopped = writeStatus(pod, current -> {
                PodPhase phase = PodPhase.of(current);
                return phase == PodPhase.Pending || phase == PodPhase.Running
                        ? PodStatuses.stopped(current, Instant.now())
                        : null;
            });
            stopped.ifPresent(p -> log.info("pod {} stopped for its deletion", name(pod)));
            deleteNow(stopped.orElse(pod));
        } catch (KubernetesClientException e) {
            // Unlike a start, a deletion is retried, as the kubelet's pod worker does: its controllers wait for it.
            log.warn("could not stop pod {}, retrying in {} ms: {}", name(pod), STOP_RETRY.toMillis(), e.getMessage());
            schedule(STOP_RETRY, () -> stop(pod));
        }
    }

    /** Deletes the pod (same uid) with grace period 0, on the resourceVersion it has; retries on conflicts. */
    private void deleteNow(Pod pod) {
        Pod current = pod;
        for (int attempt = 1; attempt <= MAX_CONFLICT_RETRIES; attempt++) {
            if (attempt > 1) {
                current = client.pods().inNamespace(pod.getMetadata().getNamespace())
                        .withName(pod.getMetadata().getName()).get();
            }
            if (current == null || !uid(current).equals(uid(pod))) {
                return;
            }
            try {
                // The DSL's types do not chain a grace period and a precondition; the operation behind both does.
                PodResource resource = (PodResource) client.pods().inNamespace(pod.getMetadata().getNamespace())
                        .withName(pod.getMetadata().getName()).withGracePeriod(0);
                resource.lockResourceVersion(current.getMetadata().getResourceVersion()).delete();
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                    throw e;
                }
            }
        }
        log.warn("gave up deleting pod {} after {} conflicts", name(pod), MAX_CONFLICT_RETRIES);
    }

    /** The time the pod's containers take to stop: {@code podStopDelay}, cut to the pod's grace period. */
    private Duration stopDelay(Pod pod) {
        Long grace = pod.getMetadata().getDeletionGracePeriodSeconds();
        Duration gracePeriod = grace == null ? Duration.ZERO : Duration.ofSeconds(Math.max(grace, 0));
        return timings.podStopDelay().compareTo(gracePeriod) > 0 ? gracePeriod : timings.podStopDelay();
    }

    private static void cancel(ScheduledFuture<?> transition) {
        if (transition != null) {
            transition.cancel(false);
        }
    }

    /**
     * Replaces the status of the pod (same uid) with {@code change} of its current version, retrying on
     * conflicts. The first attempt starts from {@code pod}, the version the transition was computed from; only
     * a conflict, which means the pod changed since, reads it from the API. A null change means the transition
     * no longer applies.
     *
     * @return the pod as written, empty if the pod is gone or the change did not apply
     */
    private Optional<Pod> writeStatus(Pod pod, Function<Pod, PodStatus> change) {
        // A copy: the pod may be the informer's, which is shared with its other readers.
        Pod current = Serialization.clone(pod);
        for (int attempt = 1; attempt <= MAX_CONFLICT_RETRIES; attempt++) {
            if (attempt > 1) {
                current = client.pods().inNamespace(pod.getMetadata().getNamespace())
                        .withName(pod.getMetadata().getName()).get();
            }
            if (current == null || !uid(current).equals(uid(pod))) {
                return Optional.empty();
            }
            PodStatus status = change.apply(current);
            if (status == null) {
                return Optional.empty();
            }
            current.setStatus(status);
            try {
                return Optional.of(client.resource(current).updateStatus());
            } catch (KubernetesClientException e) {
                if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                    return Optional.empty();
                }
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                    throw e;
                }
            }
        }
        log.warn("gave up writing status of pod {} after {} conflicts", name(pod), MAX_CONFLICT_RETRIES);
        return Optional.empty();
    }

    /** How long the pod runs; empty for pods that run until deleted. */
    private Optional<Duration> runTime(Pod pod) {
        String value = setting(pod, MusterLabels.LOCAL_RUN_SECONDS);
        if (value != null) {
            try {
                return Optional.of(Duration.ofMillis(Math.round(Double.parseDouble(value) * 1000)));
            } catch (NumberFormatException e) {
                log.warn("pod {}: {}={} is not a number of seconds; using the default", name(pod),
                        MusterLabels.LOCAL_RUN_SECONDS, value);
            }
        }
        return "Always".equals(pod.getSpec().getRestartPolicy()) ? Optional.empty() : Optional.of(timings.defaultRunTime());
    }

    /** How long each init container of the pod that is not a sidecar runs: init-seconds, else no time. */
    private static Duration initRunTime(Pod pod) {
        String value = setting(pod, INIT_SECONDS);
        if (value != null) {
            try {
                return Duration.ofMillis(Math.max(0, Math.round(Double.parseDouble(value) * 1000)));
            } catch (NumberFormatException e) {
                log.warn("pod {}: {}={} is not a number of seconds; using 0", name(pod), INIT_SECONDS, value);
            }
        }
        return Duration.ZERO;
    }

    private static int exitCode(Pod pod) {
        return integer(pod, MusterLabels.LOCAL_EXIT_CODE);
    }

    private static int initExitCode(Pod pod) {
        return integer(pod, INIT_EXIT_CODE);
    }

    /** An exit code setting; 0 when the pod has none. */
    private static int integer(Pod pod, String key) {
        String value = setting(pod, key);
        if (value == null) {
            return 0;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            log.warn("pod {}: {}={} is not an integer; exiting with 0", name(pod), key, value);
            return 0;
        }
    }

    /** An annotation, or a label of the same name, so that pod templates can use either. */
    private static String setting(Pod pod, String key) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        Map<String, String> labels = pod.getMetadata().getLabels();
        if (annotations != null && annotations.containsKey(key)) {
            return annotations.get(key);
        }
        return labels == null ? null : labels.get(key);
    }

    private ScheduledFuture<?> schedule(Duration delay, Runnable transition) {
        return timers.schedule(() -> {
            try {
                transition.run();
            } catch (RuntimeException e) {
                // A failed transition is logged, not retried: the pod keeps its phase, as with a stuck kubelet.
                log.warn("simulated kubelet transition failed", e);
            }
        }, delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    private String nextPodIp() {
        int n = podAddresses.incrementAndGet();
        return "10." + (128 | ((n >>> 16) & 0x7f)) + "." + ((n >>> 8) & 0xff) + "." + (n & 0xff);
    }

    private static String uid(HasMetadata object) {
        return object.getMetadata().getUid();
    }

    private static String name(HasMetadata object) {
        return object.getMetadata().getNamespace() + "/" + object.getMetadata().getName();
    }

    /**
     * A pod's restart back-off: what the next exit of its containers waits before they start again, and when
     * they last exited.
     */
    private record CrashLoop(Duration nextBackOff, Instant lastExit) {
    }

    private final class NodeHandler implements ResourceEventHandler<Node> {
        @Override
        public void onAdd(Node node) {
            lostNodes.remove(node.getMetadata().getName());
            completeStatus(node);
            runPodsBoundTo(node);
        }

        @Override
        public void onUpdate(Node oldNode, Node newNode) {
            completeStatus(newNode);
        }

        @Override
        public void onDelete(Node node, boolean deletedFinalStateUnknown) {
            // Pods on a deleted node keep their last status, as when a real node disappears, until deleted.
            lostNodes.add(node.getMetadata().getName());
            podInformer.getStore().list().stream()
                    .filter(pod -> node.getMetadata().getName().equals(pod.getSpec().getNodeName()))
                    .forEach(SimulatedKubelet.this::collectIfOrphaned);
        }
    }

    /** A claim's allocation or reservation may be what a Pending pod that names it waits for. */
    private final class ClaimHandler implements ResourceEventHandler<GenericKubernetesResource> {
        @Override
        public void onAdd(GenericKubernetesResource claim) {
            reconcilePodsNaming(claim);
        }

        @Override
        public void onUpdate(GenericKubernetesResource oldClaim, GenericKubernetesResource newClaim) {
            reconcilePodsNaming(newClaim);
        }

        @Override
        public void onDelete(GenericKubernetesResource claim, boolean deletedFinalStateUnknown) {
            // a pod whose claim is gone keeps waiting, as on a node
        }

        private void reconcilePodsNaming(GenericKubernetesResource claim) {
            podInformer.getIndexer().byIndex(CLAIM_INDEX, Cache.metaNamespaceKeyFunc(claim)).stream()
                    .filter(pod -> PodPhase.of(pod) == PodPhase.Pending)
                    .forEach(SimulatedKubelet.this::reconcilePod);
        }
    }

    private final class PodHandler implements ResourceEventHandler<Pod> {
        @Override
        public void onAdd(Pod pod) {
            reconcilePod(pod);
        }

        @Override
        public void onUpdate(Pod oldPod, Pod newPod) {
            reconcilePod(newPod);
        }

        @Override
        public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
            cancel(transitions.remove(uid(pod)));
            stopping.remove(uid(pod));
            crashLoops.remove(uid(pod));
            events.forget(uid(pod));
        }
    }
}
