package dev.muster.podgroup;

import dev.muster.api.PodGroupLabel;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.support.controller.Controller;
import dev.muster.support.controller.ObjectKey;
import dev.muster.support.event.EventRecorder;
import dev.muster.support.gang.GangVerdictBoard;
import dev.muster.support.informer.SharedInformers;
import dev.muster.support.status.CounterWritePacer;
import dev.muster.support.status.StatusWriter;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import java.time.Clock;
import java.util.Optional;

/**
 * Keeps every PodGroup's status honest: phase, conditions, counters and scheduleStartTime, derived
 * from the group's pods (joined by the {@code scheduling.muster.dev/pod-group} label), the nodes they
 * are bound to (a pod whose node is gone is lost) and the gang scheduler's verdicts. It is the only
 * writer of PodGroup status and never creates or deletes PodGroups: the Job controller creates those
 * of Jobs, users create the others.
 *
 * <p>Wiring: construct it before {@link SharedInformers#start()} (the constructor adds its indexes to
 * the shared Pod informer and asks for the Node informer), then call {@link #start()}; the order of the
 * two starts does not matter.
 */
public final class PodGroupController implements AutoCloseable {
    /** Reporting component of the Events it records. */
    public static final String COMPONENT = "muster-podgroup-controller";

    private final SharedIndexInformer<PodGroup> groups;
    private final SharedIndexInformer<Pod> pods;
    private final SharedIndexInformer<Node> nodes;
    private final GangVerdictBoard verdicts;
    private final PodGroupReconciler reconciler;
    private final Controller controller;
    private final ResourceEventHandler<PodGroup> groupHandler = new GroupHandler();
    private final ResourceEventHandler<Pod> podHandler;
    private final ResourceEventHandler<Node> nodeHandler = new NodeHandler();

    /**
     * A controller with the default configuration writing status through the given writer, whose
     * {@link StatusWriter#writes()} then counts this controller's writes.
     */
    public PodGroupController(KubernetesClient client, SharedInformers informers, GangVerdictBoard verdicts,
                              StatusWriter statusWriter) {
        this(client, informers, verdicts, statusWriter, PodGroupControllerConfig.defaults());
    }

    /** A controller writing status through the given writer, configured as given. */
    public PodGroupController(KubernetesClient client, SharedInformers informers, GangVerdictBoard verdicts,
                              StatusWriter statusWriter, PodGroupControllerConfig config) {
        this.groups = informers.informer(PodGroup.class);
        this.pods = informers.informer(Pod.class);
        this.nodes = informers.informer(Node.class);
        this.verdicts = verdicts;
        pods.addIndexers(PodsByGroupIndex.indexers());
        pods.addIndexers(PodsByNodeIndex.indexers());
        this.reconciler = new PodGroupReconciler(groups, pods, nodes, verdicts, new PodGroupStatusCalculator(),
                new ReplacementWaits(config.replacementGracePeriod()), new CounterWritePacer<>(config.counterWriteInterval(), PodGroupCounters::countersOnly),
                statusWriter, new EventRecorder(client, COMPONENT), Clock.systemUTC());
        this.controller = new Controller("podgroup-controller", reconciler, config.workers());
        this.podHandler = controller.enqueueing(PodGroupController::groupOf);
    }

    /** Starts watching PodGroups, Pods, Nodes and verdicts, and reconciling. Call once. */
    public void start() {
        groups.addEventHandler(groupHandler);
        pods.addEventHandler(podHandler);
        nodes.addEventHandler(nodeHandler);
        verdicts.addListener(verdict -> controller.enqueue(new ObjectKey(verdict.namespace(), verdict.podGroup())));
        controller.start();
    }

    /** Worker threads that died while the controller runs, for health reporting; see {@link Controller#deadWorkers()}. */
    public int deadWorkers() {
        return controller.deadWorkers();
    }

    /** Stops reconciling; the shared informers keep running for the other components. */
    @Override
    public void close() {
        groups.removeEventHandler(groupHandler);
        pods.removeEventHandler(podHandler);
        nodes.removeEventHandler(nodeHandler);
        controller.close();
    }

    /** The key of the group a pod joins by label, if it joins one. */
    private static Optional<ObjectKey> groupOf(Pod pod) {
        return PodGroupLabel.groupName(pod).map(group -> new ObjectKey(pod.getMetadata().getNamespace(), group));
    }

    private final class GroupHandler implements ResourceEventHandler<PodGroup> {
        @Override
        public void onAdd(PodGroup group) {
            controller.enqueue(ObjectKey.of(group));
        }

        @Override
        public void onUpdate(PodGroup oldGroup, PodGroup newGroup) {
            controller.enqueue(ObjectKey.of(newGroup));
        }

        @Override
        public void onDelete(PodGroup group, boolean deletedFinalStateUnknown) {
            // A group re-created under the same name must not inherit the old one's verdict, clocks or pacing.
            verdicts.forget(group.getMetadata().getNamespace(), group.getMetadata().getName());
            reconciler.forget(ObjectKey.of(group));
        }
    }

    /** A node that disappears loses its pods; one that (re)appears may bring them back. */
    private final class NodeHandler implements ResourceEventHandler<Node> {
        @Override
        public void onAdd(Node node) {
            enqueueGroupsOn(node);
        }

        @Override
        public void onUpdate(Node oldNode, Node newNode) {
            // Heartbeats and status changes do not change which pods are lost.
        }

        @Override
        public void onDelete(Node node, boolean deletedFinalStateUnknown) {
            enqueueGroupsOn(node);
        }

        private void enqueueGroupsOn(Node node) {
            pods.getIndexer().byIndex(PodsByNodeIndex.NAME, node.getMetadata().getName())
                    .forEach(pod -> groupOf(pod).ifPresent(controller::enqueue));
        }
    }
}
