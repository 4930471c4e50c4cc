package dev.muster.local.autoscaler;

import dev.muster.api.EffectiveRequests;
import dev.muster.local.informer.InformerSync;
import dev.muster.local.node.SimulatedNodes;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A cluster autoscaler for the local cluster's node groups, driven only through the API like Cluster Autoscaler
 * with {@code --enable-provisioning-requests}. Every scan interval it:
 * <ul>
 *   <li>expires the booking of requests provisioned longer than the booking time ({@code BookingExpired}), and
 *       counts the room of the others as taken by the pods they were provisioned for that do not exist yet;</li>
 *   <li>answers each new ProvisioningRequest of the classes {@code best-effort-atomic-scale-up} (room for all
 *       its pods on the nodes there are, or on new nodes of one group, all added at once after the group's
 *       delay) and {@code check-capacity} (room on the nodes there are, never a scale-up), and leaves
 *       requests of other classes alone;</li>
 *   <li>grows a group for pods left {@code Unschedulable} by whatever scheduler;</li>
 *   <li>removes group nodes that stayed empty for the scale-down delay, never below a group's minimum.</li>
 * </ul>
 * All decisions are {@link ScaleUpPlanner}'s; this class reads informers and writes nodes and request status.
 * Everything runs on one thread, so its bookkeeping needs no locks.
 */
public final class SimulatedAutoscaler implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SimulatedAutoscaler.class);
    /** The source of its Events, as Cluster Autoscaler names itself. */
    static final String COMPONENT = "cluster-autoscaler";
    private static final ResourceDefinitionContext REQUESTS = new ResourceDefinitionContext.Builder()
            .withGroup("autoscaling.x-k8s.io").withVersion("v1").withKind("ProvisioningRequest")
            .withPlural("provisioningrequests").withNamespaced(true).build();

    /**
     * Nodes on their way to a group.
     *
     * @param request the request they are for ({@code namespace/name}), null for unschedulable pods
     * @param uid     the request's uid, null for unschedulable pods
     */
    private record ScaleUp(NodeGroup group, List<String> nodes, String request, String uid) {
    }

    private final KubernetesClient client;
    private final AutoscalerConfig config;
    private final SimulatedNodes simulatedNodes;
    private final Clock clock;
    private final ScheduledExecutorService thread;
    /** The groups whose cloud provider grants scale-ups, tried before the failing ones. */
    private final List<NodeGroup> working;
    private final SharedIndexInformer<Node> nodeInformer;
    private final SharedIndexInformer<Pod> podInformer;
    private final SharedIndexInformer<PodTemplate> templateInformer;
    private final SharedIndexInformer<GenericKubernetesResource> requestInformer;
    /** Scale-ups decided and not yet added. */
    private final List<ScaleUp> upcoming = new ArrayList<>();
    /** Nodes of upcoming scale-ups that could not be created; they will not appear. */
    private final Set<String> failedNodes = new HashSet<>();
    /** Requests whose nodes were added and whose {@code Provisioned} is still to be written, by uid. */
    private final Map<String, ScaleUp> added = new LinkedHashMap<>();
    /** When each group node was first seen empty. */
    private final Map<String, Instant> emptySince = new HashMap<>();
    /** The reason and message of the last Event recorded on each unschedulable pod, by uid. */
    private final Map<String, String> told = new HashMap<>();
    /** The next node number of each group. */
    private final Map<String, Integer> nextIndex = new HashMap<>();

    private SimulatedAutoscaler(KubernetesClient client, AutoscalerConfig config, SimulatedNodes simulatedNodes,
                                Clock clock) {
        this.client = client;
        this.config = config;
        this.simulatedNodes = simulatedNodes;
        this.clock = clock;
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "simulated-autoscaler");
            t.setDaemon(true);
            return t;
        });
        this.nodeInformer = client.nodes().runnableInformer(0);
        this.podInformer = client.pods().inAnyNamespace().runnableInformer(0);
        this.templateInformer = client.resources(PodTemplate.class).inAnyNamespace().runnableInformer(0);
        this.requestInformer = client.genericKubernetesResources(REQUESTS).inAnyNamespace().runnableInformer(0);
        config.nodeGroups().forEach(g -> nextIndex.put(g.name(), g.min()));
        this.working = config.nodeGroups().stream().filter(g -> !g.fail()).toList();
    }

    /** Starts an autoscaler that uses {@code client} (and closes it when closed), once its informers have listed. */
    public static SimulatedAutoscaler start(KubernetesClient client, AutoscalerConfig config, SimulatedNodes nodes) {
        SimulatedAutoscaler autoscaler = new SimulatedAutoscaler(client, config, nodes, Clock.systemUTC());
        InformerSync.awaitAll("simulated autoscaler", autoscaler::close, autoscaler.nodeInformer,
                autoscaler.podInformer, autoscaler.templateInformer, autoscaler.requestInformer);
        long period = config.scanInterval().toMillis();
        autoscaler.thread.scheduleWithFixedDelay(autoscaler::scanSafely, period, period, TimeUnit.MILLISECONDS);
        return autoscaler;
    }

    @Override
    public void close() {
        thread.shutdownNow();
        requestInformer.close();
        templateInformer.close();
        podInformer.close();
        nodeInformer.close();
        client.close();
    }

    private void scanSafely() {
        try {
            scan();
        } catch (RuntimeException e) {
            // The next scan starts from the informers again; one failed write must not stop the autoscaler.
            log.warn("simulated autoscaler scan failed: {}", e.toString());
        }
    }

    private void scan() {
        Instant now = clock.instant();
        List<Node> nodes = nodeInformer.getStore().list();
        List<Pod> pods = podInformer.getStore().list().stream().filter(SimulatedAutoscaler::holdsRoom).toList();
        upcoming.removeIf(s -> s.nodes().stream().noneMatch(this::onItsWay));
        failedNodes.retainAll(upcoming.stream().flatMap(s -> s.nodes().stream()).toList());
        List<ScaleUpPlanner.Room> rooms = rooms(nodes, pods);
        Map<String, Integer> sizes = sizes(nodes);
        Set<String> booked = new HashSet<>();
        List<GenericKubernetesResource> requests = requestInformer.getStore().list().stream()
                .sorted(Comparator.comparing((GenericKubernetesResource r) -> r.getMetadata().getCreationTimestamp())
                        .thenComparing(r -> r.getMetadata().getName()))
                .toList();
        Set<String> uids = new HashSet<>();
        requests.forEach(r -> uids.add(r.getMetadata().getUid()));
        // A request deleted while its nodes were on their way has no Provisioned to be written.
        added.keySet().retainAll(uids);
        for (GenericKubernetesResource request : requests) {
            rooms = book(request, pods, rooms, booked, now);
        }
        for (GenericKubernetesResource request : requests) {
            rooms = answer(request, rooms, sizes, now);
        }
        booked.addAll(scaleForUnschedulablePods(podInformer.getStore().list(), rooms, sizes));
        scaleDown(nodes, pods, booked, sizes, now);
    }

    /** Whether a node of a scale-up is still to appear: neither in the cluster yet nor failed to be added. */
    private boolean onItsWay(String node) {
        return nodeInformer.getStore().getByKey(node) == null && !failedNodes.contains(node);
    }

    /** Pods that take room on their node: bound and not finished. */
    private static boolean holdsRoom(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty()
                && !"Succeeded".equals(phase) && !"Failed".equals(phase);
    }

    /** The free room of every node, and the empty nodes on their way. */
    private List<ScaleUpPlanner.Room> rooms(List<Node> nodes, List<Pod> pods) {
        Map<String, List<Pod>> byNode = new HashMap<>();
        pods.forEach(p -> byNode.computeIfAbsent(p.getSpec().getNodeName(), k -> new ArrayList<>()).add(p));
        List<ScaleUpPlanner.Room> rooms = new ArrayList<>();
        for (Node node : nodes) {
            if (node.getMetadata().getDeletionTimestamp() != null || node.getStatus() == null
                    || node.getStatus().getAllocatable() == null) {
                continue;
            }
            Map<String, BigDecimal> free = new HashMap<>();
            node.getStatus().getAllocatable().forEach((resource, q) -> free.put(resource, q.getNumericalAmount()));
            List<Pod> onNode = byNode.getOrDefault(node.getMetadata().getName(), List.of());
            for (Pod pod : onNode) {
                EffectiveRequests.amounts(pod.getSpec()).forEach((r, a) -> free.merge(r, a.negate(), BigDecimal::add));
            }
            free.merge("pods", BigDecimal.valueOf(-onNode.size()), BigDecimal::add);
            Map<String, String> labels = node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
            rooms.add(new ScaleUpPlanner.Room(node.getMetadata().getName(), labels.get(NodeGroup.GROUP_LABEL), labels,
                    free, false));
        }
        for (ScaleUp scaleUp : upcoming) {
            scaleUp.nodes().stream().filter(this::onItsWay)
                    .forEach(n -> rooms.add(ScaleUpPlanner.Room.template(scaleUp.group(), n, true)));
        }
        return rooms;
    }

    /** Each group's nodes, existing and upcoming. */
    private Map<String, Integer> sizes(List<Node> nodes) {
        Map<String, Integer> sizes = new HashMap<>();
        for (Node node : nodes) {
            String group = node.getMetadata().getLabels() == null ? null
                    : node.getMetadata().getLabels().get(NodeGroup.GROUP_LABEL);
            if (group != null) {
                sizes.merge(group, 1, Integer::sum);
            }
        }
        upcoming.forEach(s -> sizes.merge(s.group().name(), (int) s.nodes().stream().filter(this::onItsWay).count(),
                Integer::sum));
        return sizes;
    }

    /**
     * For a provisioned request: its booking expires after the booking time; until then the pods it was
     * provisioned for that do not exist yet take their room, so that other requests and pods cannot have it.
     * The same for a request whose nodes are on their way.
     */
    private List<ScaleUpPlanner.Room> book(GenericKubernetesResource request, List<Pod> pods,
                                           List<ScaleUpPlanner.Room> rooms, Set<String> booked, Instant now) {
        String uid = request.getMetadata().getUid();
        boolean scalingUp = added.containsKey(uid) || upcoming.stream().anyMatch(s -> uid.equals(s.uid()));
        List<Map<String, Object>> conditions = ProvisioningRequests.conditions(request);
        if (!scalingUp && (!ProvisioningRequests.isTrue(conditions, ProvisioningRequests.PROVISIONED)
                || ProvisioningRequests.isTrue(conditions, ProvisioningRequests.BOOKING_EXPIRED)
                || ProvisioningRequests.isTrue(conditions, ProvisioningRequests.FAILED))) {
            return rooms;
        }
        Instant since = ProvisioningRequests.since(conditions, ProvisioningRequests.PROVISIONED).orElse(now);
        if (!scalingUp && !since.plus(config.bookingTime()).isAfter(now)) {
            writeConditions(request, ProvisioningRequests.set(conditions, ProvisioningRequests.BOOKING_EXPIRED,
                    true, ProvisioningRequests.RESERVATION_TIME_EXCEEDED,
                    "The capacity booked for this request was released after " + config.bookingTime().toSeconds()
                            + "s", ProvisioningRequests.generation(request), now));
            log.info("provisioning request {}: booking expired", ProvisioningRequests.key(request));
            return rooms;
        }
        Optional<List<ScaleUpPlanner.PodDemand>> demands = demands(request);
        if (demands.isEmpty()) {
            return rooms;
        }
        String name = request.getMetadata().getName();
        long consuming = pods.stream()
                .filter(p -> request.getMetadata().getNamespace().equals(p.getMetadata().getNamespace()))
                .filter(p -> p.getMetadata().getAnnotations() != null
                        && name.equals(p.getMetadata().getAnnotations().get(ProvisioningRequests.CONSUME_ANNOTATION)))
                .count();
        List<ScaleUpPlanner.PodDemand> missing = demands.get().stream().skip(consuming).toList();
        ScaleUpPlanner.Placement placement = ScaleUpPlanner.place(missing, rooms);
        booked.addAll(placement.placed().values());
        return placement.rooms();
    }

    /** Decides about a request not yet decided, of a class this autoscaler serves. */
    private List<ScaleUpPlanner.Room> answer(GenericKubernetesResource request, List<ScaleUpPlanner.Room> rooms,
                                             Map<String, Integer> sizes, Instant now) {
        String className = ProvisioningRequests.className(request);
        boolean atomic = ProvisioningRequests.BEST_EFFORT_ATOMIC.equals(className);
        if (!atomic && !ProvisioningRequests.CHECK_CAPACITY.equals(className)) {
            return rooms;
        }
        String uid = request.getMetadata().getUid();
        List<Map<String, Object>> conditions = ProvisioningRequests.conditions(request);
        ScaleUp done = added.get(uid);
        if (done != null) {
            writeConditions(request, ProvisioningRequests.set(conditions, ProvisioningRequests.PROVISIONED, true,
                    ProvisioningRequests.CAPACITY_IS_PROVISIONED, "Capacity is provisioned: " + done.nodes().size()
                            + " nodes added to node group " + done.group().name() + " (" + String.join(", ", done.nodes())
                            + ")", ProvisioningRequests.generation(request), now));
            added.remove(uid);
            return rooms;
        }
        if (ProvisioningRequests.isTrue(conditions, ProvisioningRequests.PROVISIONED)
                || ProvisioningRequests.isTrue(conditions, ProvisioningRequests.FAILED)
                || ProvisioningRequests.isTrue(conditions, ProvisioningRequests.BOOKING_EXPIRED)
                || upcoming.stream().anyMatch(s -> uid.equals(s.uid()))) {
            return rooms;
        }
        long generation = ProvisioningRequests.generation(request);
        List<Map<String, Object>> next = ProvisioningRequests.set(conditions, ProvisioningRequests.ACCEPTED, true,
                ProvisioningRequests.ACCEPTED_REASON, "The request is accepted by the cluster autoscaler",
                generation, now);
        Optional<List<ScaleUpPlanner.PodDemand>> demands = demands(request);
        if (demands.isEmpty()) {
            writeConditions(request, ProvisioningRequests.set(next, ProvisioningRequests.FAILED, true,
                    ProvisioningRequests.FAILED_TO_CREATE_PODS, "Cannot build the request's pods: "
                            + missingTemplates(request), generation, now));
            log.info("provisioning request {} failed: {}", ProvisioningRequests.key(request), missingTemplates(request));
            return rooms;
        }
        boolean noRetry = "true".equals(ProvisioningRequests.parameters(request).get(ProvisioningRequests.NO_RETRY_PARAMETER));
        if (!atomic) {
            ScaleUpPlanner.Placement placement = ScaleUpPlanner.place(demands.get(), rooms);
            if (placement.unplaced().isEmpty()) {
                writeConditions(request, ProvisioningRequests.set(next, ProvisioningRequests.PROVISIONED, true,
                        ProvisioningRequests.CAPACITY_IS_FOUND, "Capacity is found in the cluster", generation, now));
                log.info("provisioning request {}: capacity found for {} pods", ProvisioningRequests.key(request), demands.get().size());
                return placement.rooms();
            }
            notFound(request, next, noRetry, placement.unplaced().size() + " of " + demands.get().size()
                    + " pods do not fit the cluster's free capacity", now);
            return rooms;
        }
        ScaleUpPlanner.Decision decision = ScaleUpPlanner.atomic(demands.get(), rooms, working, sizes);
        if (decision instanceof ScaleUpPlanner.NoScaleUp) {
            // Only a failing group could help, or none: the refusal, or why not group by group, is the answer.
            decision = ScaleUpPlanner.atomic(demands.get(), rooms, config.nodeGroups(), sizes);
        }
        if (decision instanceof ScaleUpPlanner.Fits) {
            writeConditions(request, ProvisioningRequests.set(next, ProvisioningRequests.PROVISIONED, true,
                    ProvisioningRequests.CAPACITY_IS_FOUND, "Capacity is found in the cluster", generation, now));
            log.info("provisioning request {}: capacity found for {} pods", ProvisioningRequests.key(request), demands.get().size());
            return ScaleUpPlanner.place(demands.get(), rooms).rooms();
        }
        if (decision instanceof ScaleUpPlanner.NoScaleUp none) {
            notFound(request, next, noRetry, none.message(), now);
            return rooms;
        }
        ScaleUpPlanner.ScaleUp scaleUp = (ScaleUpPlanner.ScaleUp) decision;
        if (scaleUp.group().fail()) {
            writeConditions(request, ProvisioningRequests.set(next, ProvisioningRequests.FAILED, true,
                    ProvisioningRequests.CAPACITY_IS_NOT_FOUND, "Node group " + scaleUp.group().name()
                            + " refused to add " + scaleUp.nodes() + " nodes: quota exceeded", generation, now));
            log.info("provisioning request {} failed: node group {} refused {} nodes", ProvisioningRequests.key(request),
                    scaleUp.group().name(), scaleUp.nodes());
            return rooms;
        }
        writeConditions(request, next);
        ScaleUp started = startScaleUp(scaleUp.group(), scaleUp.nodes(), ProvisioningRequests.key(request), uid);
        sizes.merge(scaleUp.group().name(), scaleUp.nodes(), Integer::sum);
        List<ScaleUpPlanner.Room> withNew = new ArrayList<>(rooms);
        started.nodes().forEach(n -> withNew.add(ScaleUpPlanner.Room.template(scaleUp.group(), n, true)));
        return ScaleUpPlanner.place(demands.get(), withNew).rooms();
    }

    /** No capacity: {@code Provisioned=False} to be tried again next scan, or {@code Failed} when told not to retry. */
    private void notFound(GenericKubernetesResource request, List<Map<String, Object>> conditions, boolean noRetry,
                          String why, Instant now) {
        long generation = ProvisioningRequests.generation(request);
        List<Map<String, Object>> next = noRetry
                ? ProvisioningRequests.set(conditions, ProvisioningRequests.FAILED, true,
                        ProvisioningRequests.CAPACITY_IS_NOT_FOUND, "Capacity is not found: " + why, generation, now)
                : ProvisioningRequests.set(conditions, ProvisioningRequests.PROVISIONED, false,
                        ProvisioningRequests.CAPACITY_IS_NOT_FOUND,
                        "Capacity is not found, the autoscaler will try again: " + why, generation, now);
        if (writeConditions(request, next)) {
            log.info("provisioning request {}: capacity not found{}: {}", ProvisioningRequests.key(request), noRetry ? " (failed)" : "", why);
        }
    }

    /**
     * Grows a group for pods that a scheduler left unschedulable and that no request books room for, and tells
     * each such pod with an Event whether it triggered a scale-up, as Cluster Autoscaler does.
     *
     * @return the nodes where such pods fit already: as Cluster Autoscaler counts them placed there, the nodes
     *         are not empty
     */
    private Set<String> scaleForUnschedulablePods(List<Pod> allPods, List<ScaleUpPlanner.Room> rooms,
                                                  Map<String, Integer> sizes) {
        Map<String, Pod> byId = new LinkedHashMap<>();
        allPods.stream().filter(SimulatedAutoscaler::isUnschedulable)
                .sorted(Comparator.comparing((Pod p) -> p.getMetadata().getCreationTimestamp())
                        .thenComparing(p -> p.getMetadata().getName()))
                .forEach(p -> byId.put(p.getMetadata().getNamespace() + "/" + p.getMetadata().getName(), p));
        Set<String> uids = new HashSet<>();
        byId.values().forEach(p -> uids.add(p.getMetadata().getUid()));
        told.keySet().retainAll(uids);
        if (byId.isEmpty()) {
            return Set.of();
        }
        List<ScaleUpPlanner.PodDemand> unschedulable = byId.entrySet().stream()
                .map(e -> demand(e.getKey(), e.getValue().getSpec())).toList();
        ScaleUpPlanner.Placement existing = ScaleUpPlanner.place(unschedulable, rooms);
        Set<String> used = new HashSet<>(existing.placed().values());
        ScaleUpPlanner.Decision decision = ScaleUpPlanner.pending(unschedulable, rooms, working, sizes);
        if (decision instanceof ScaleUpPlanner.NoScaleUp) {
            decision = ScaleUpPlanner.pending(unschedulable, rooms, config.nodeGroups(), sizes);
        }
        Map<String, String> triggered = Map.of();
        String refused = null;
        if (decision instanceof ScaleUpPlanner.ScaleUp scaleUp) {
            NodeGroup group = scaleUp.group();
            int size = sizes.getOrDefault(group.name(), 0);
            if (group.fail()) {
                refused = "node group " + group.name() + " refused to add " + scaleUp.nodes() + " nodes: quota exceeded";
            } else {
                ScaleUp started = startScaleUp(group, scaleUp.nodes(), null, null);
                sizes.merge(group.name(), scaleUp.nodes(), Integer::sum);
                List<ScaleUpPlanner.Room> withNew = new ArrayList<>(existing.rooms());
                started.nodes().forEach(n -> withNew.add(ScaleUpPlanner.Room.template(group, n, true)));
                String message = "pod triggered scale-up: [{" + group.name() + " " + size + "->"
                        + (size + scaleUp.nodes()) + " (max: " + group.max() + ")}]";
                Map<String, String> onNew = new HashMap<>();
                ScaleUpPlanner.place(existing.unplaced(), withNew).placed().keySet().forEach(id -> onNew.put(id, message));
                triggered = onNew;
            }
        }
        for (ScaleUpPlanner.PodDemand pod : existing.unplaced()) {
            String message = triggered.get(pod.id());
            if (message != null) {
                tell(byId.get(pod.id()), "TriggeredScaleUp", message);
            } else {
                tell(byId.get(pod.id()), "NotTriggerScaleUp", "pod didn't trigger scale-up: "
                        + (refused != null ? refused : ScaleUpPlanner.whyNot(pod, config.nodeGroups(), sizes)));
            }
        }
        return used;
    }

    /** Records an Event on the pod unless the last one this autoscaler recorded on it says the same. */
    private void tell(Pod pod, String reason, String message) {
        String uid = pod.getMetadata().getUid();
        if ((reason + message).equals(told.get(uid))) {
            return;
        }
        String now = clock.instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
        Event event = new EventBuilder().withNewMetadata().withNamespace(pod.getMetadata().getNamespace())
                .withName(pod.getMetadata().getName() + "." + Long.toHexString(System.nanoTime())).endMetadata()
                .withNewInvolvedObject().withApiVersion("v1").withKind("Pod")
                .withNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).withUid(uid)
                .withResourceVersion(pod.getMetadata().getResourceVersion()).endInvolvedObject()
                .withType("Normal").withReason(reason).withMessage(message).withCount(1)
                .withFirstTimestamp(now).withLastTimestamp(now)
                .withNewSource().withComponent(COMPONENT).endSource().withReportingComponent(COMPONENT).build();
        try {
            client.v1().events().inNamespace(pod.getMetadata().getNamespace()).resource(event).create();
            told.put(uid, reason + message);
        } catch (KubernetesClientException e) {
            log.debug("could not record event on pod {}/{}: {}", pod.getMetadata().getNamespace(),
                    pod.getMetadata().getName(), e.getMessage());
        }
    }

    private static boolean isUnschedulable(Pod pod) {
        if ((pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty())
                || pod.getMetadata().getDeletionTimestamp() != null || pod.getStatus() == null
                || (pod.getMetadata().getAnnotations() != null
                && pod.getMetadata().getAnnotations().containsKey(ProvisioningRequests.CONSUME_ANNOTATION))) {
            return false;
        }
        return pod.getStatus().getConditions().stream().anyMatch(c -> "PodScheduled".equals(c.getType())
                && "False".equals(c.getStatus()) && "Unschedulable".equals(c.getReason()));
    }

    /** Decides the nodes' names now and adds them all at once after the group's delay. */
    private ScaleUp startScaleUp(NodeGroup group, int count, String request, String uid) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int index = nextIndex.merge(group.name(), 1, Integer::sum) - 1;
            while (nodeInformer.getStore().getByKey(group.name() + "-" + index) != null) {
                index = nextIndex.merge(group.name(), 1, Integer::sum) - 1;
            }
            names.add(group.name() + "-" + index);
        }
        ScaleUp scaleUp = new ScaleUp(group, List.copyOf(names), request, uid);
        upcoming.add(scaleUp);
        log.info("scale-up: node group {} +{} nodes in {}s for {}", group.name(), count, group.delay().toSeconds(),
                request == null ? "unschedulable pods" : "provisioning request " + request);
        thread.schedule(() -> add(scaleUp), group.delay().toMillis(), TimeUnit.MILLISECONDS);
        return scaleUp;
    }

    private void add(ScaleUp scaleUp) {
        for (String name : scaleUp.nodes()) {
            int index = Integer.parseInt(name.substring(scaleUp.group().name().length() + 1));
            try {
                client.nodes().resource(simulatedNodes.simulated(scaleUp.group().node(index))).create();
            } catch (KubernetesClientException e) {
                failedNodes.add(name);
                log.warn("could not add node {}: {}", name, e.getMessage());
            }
        }
        boolean complete = scaleUp.nodes().stream().noneMatch(failedNodes::contains);
        log.info("node group {}: added {}{}", scaleUp.group().name(), String.join(", ", scaleUp.nodes()),
                complete ? "" : " (not all)");
        // A request whose nodes did not all come is not provisioned: the next scan decides about it again.
        if (scaleUp.uid() != null && complete) {
            added.put(scaleUp.uid(), scaleUp);
        }
        scanSafely();
    }

    /** Removes group nodes empty for the scale-down delay, keeping each group at its minimum at least. */
    private void scaleDown(List<Node> nodes, List<Pod> pods, Set<String> booked, Map<String, Integer> sizes, Instant now) {
        Set<String> busy = new HashSet<>(booked);
        pods.forEach(p -> busy.add(p.getSpec().getNodeName()));
        Map<String, Integer> existing = new HashMap<>();
        Map<String, NodeGroup> groups = new HashMap<>();
        config.nodeGroups().forEach(g -> groups.put(g.name(), g));
        Set<String> seen = new HashSet<>();
        for (Node node : nodes) {
            String group = node.getMetadata().getLabels() == null ? null
                    : node.getMetadata().getLabels().get(NodeGroup.GROUP_LABEL);
            if (group != null && groups.containsKey(group)) {
                existing.merge(group, 1, Integer::sum);
            }
        }
        for (Node node : nodes.stream().sorted(Comparator.comparing((Node n) -> n.getMetadata().getName())).toList()) {
            String name = node.getMetadata().getName();
            String groupName = node.getMetadata().getLabels() == null ? null
                    : node.getMetadata().getLabels().get(NodeGroup.GROUP_LABEL);
            NodeGroup group = groupName == null ? null : groups.get(groupName);
            if (group == null || busy.contains(name) || node.getMetadata().getDeletionTimestamp() != null) {
                continue;
            }
            seen.add(name);
            Instant since = emptySince.computeIfAbsent(name, n -> now);
            if (now.isBefore(since.plus(config.scaleDownDelay())) || existing.get(groupName) <= group.min()) {
                continue;
            }
            try {
                client.nodes().resource(node).lockResourceVersion(node.getMetadata().getResourceVersion()).delete();
                existing.merge(groupName, -1, Integer::sum);
                sizes.merge(groupName, -1, Integer::sum);
                log.info("scale-down: node group {} removed {}, empty for {}s", groupName, name,
                        Duration.between(since, now).toSeconds());
            } catch (KubernetesClientException e) {
                // Changed since read (a pod may be on its way): the next scan decides again.
                log.debug("could not remove node {}: {}", name, e.getMessage());
            }
        }
        emptySince.keySet().retainAll(seen);
    }

    /**
     * The pods a request asks for, one per count of each podSet, from its PodTemplates; empty if a template is
     * missing.
     */
    private Optional<List<ScaleUpPlanner.PodDemand>> demands(GenericKubernetesResource request) {
        List<ScaleUpPlanner.PodDemand> demands = new ArrayList<>();
        String namespace = request.getMetadata().getNamespace();
        for (Map<String, Object> podSet : ProvisioningRequests.podSets(request)) {
            String template = ProvisioningRequests.templateName(podSet);
            PodTemplate found = templateInformer.getStore().getByKey(namespace + "/" + template);
            if (found == null || found.getTemplate() == null || found.getTemplate().getSpec() == null) {
                return Optional.empty();
            }
            int count = podSet.get("count") instanceof Number n ? n.intValue() : 0;
            for (int i = 0; i < count; i++) {
                demands.add(demand(namespace + "/" + template + "#" + i, found.getTemplate().getSpec()));
            }
        }
        return Optional.of(demands);
    }

    private String missingTemplates(GenericKubernetesResource request) {
        String namespace = request.getMetadata().getNamespace();
        return ProvisioningRequests.podSets(request).stream().map(ProvisioningRequests::templateName)
                .filter(t -> templateInformer.getStore().getByKey(namespace + "/" + t) == null)
                .map(t -> "PodTemplate " + namespace + "/" + t + " not found").reduce((a, b) -> a + ", " + b)
                .orElse("a PodTemplate has no pod spec");
    }

    private static ScaleUpPlanner.PodDemand demand(String id, PodSpec spec) {
        return new ScaleUpPlanner.PodDemand(id, EffectiveRequests.amounts(spec),
                spec.getNodeSelector() == null ? Map.of() : spec.getNodeSelector());
    }

    /** Writes the request's conditions through the status subresource if they changed; whether it wrote. */
    private boolean writeConditions(GenericKubernetesResource request, List<Map<String, Object>> conditions) {
        if (ProvisioningRequests.same(ProvisioningRequests.conditions(request), conditions)) {
            return false;
        }
        GenericKubernetesResource copy = ProvisioningRequests.withConditions(request, conditions);
        try {
            // The resourceVersion read makes this a compare-and-swap: a request changed since is decided again.
            client.genericKubernetesResources(REQUESTS).inNamespace(copy.getMetadata().getNamespace()).resource(copy)
                    .updateStatus();
            return true;
        } catch (KubernetesClientException e) {
            log.debug("could not update provisioning request {}: {}", ProvisioningRequests.key(request), e.getMessage());
            return false;
        }
    }
}
