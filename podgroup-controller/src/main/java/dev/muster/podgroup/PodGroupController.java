package dev.muster.podgroup;

import dev.muster.api.PodGroupLabel;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.support.controller.Attachments;
import dev.muster.support.controller.Controller;
import dev.muster.support.controller.ManagedController;
import dev.muster.support.controller.ObjectKey;
import dev.muster.support.event.EventRecorder;
import dev.muster.gang.GangVerdict;
import dev.muster.gang.GangVerdictBoard;
import dev.muster.support.informer.SharedInformers;
import dev.muster.support.status.FirstWriteWait;
import dev.muster.support.status.StatusRecorder;
import dev.muster.support.status.StatusWriter;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import java.time.Clock;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Keeps every PodGroup's status honest: phase, conditions, counters and scheduleStartTime, derived
 * from the group's pods (joined by the {@code scheduling.muster.dev/pod-group} label), the nodes they
 * are bound to (a pod whose node is gone is lost) and the gang scheduler's verdicts. It is the only
 * writer of PodGroup status and never creates or deletes PodGroups: the Job controller creates those
 * of Jobs, users create the others.
 *
 * <p>Wiring: construct it with the process's {@link SharedInformers}, then {@link #start()} it, before or after
 * {@link SharedInformers#start()}: starting adds its indexes to the shared Pod informer (unless there) and
 * its handlers to the informers and the verdict board; {@link #stop()} removes them again.
 */
public final class PodGroupController extends ManagedController {
    /** Reporting component of the Events it records. */
    public static final String COMPONENT = "muster-podgroup-controller";

    private final SharedIndexInformer<PodGroup> groups;
    private final SharedIndexInformer<Pod> pods;
    private final SharedIndexInformer<Node> nodes;
    private final GangVerdictBoard verdicts;
    private final PodGroupCache cache;
    private final PodGroupReconciler reconciler;

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
        this(informers, verdicts, new PodGroupReconciler(
                PodGroupCache.of(informers.informer(PodGroup.class), informers.informer(Pod.class), informers.informer(Node.class)),
                verdicts, new PodGroupStatusCalculator(), new ReplacementWaits(config.replacementGracePeriod()),
                new FirstWriteWait(PodGroupReconciler.FIRST_VERDICT_WAIT),
                new StatusRecorder<>(statusWriter, new EventRecorder(client, COMPONENT), config.counterWriteInterval(),
                        PodGroupCounters::countersOnly),
                Clock.systemUTC()), config.workers());
    }

    private PodGroupController(SharedInformers informers, GangVerdictBoard verdicts, PodGroupReconciler reconciler,
                               int workers) {
        super(new Controller("podgroup-controller", reconciler, workers));
        this.groups = informers.informer(PodGroup.class);
        this.pods = informers.informer(Pod.class);
        this.nodes = informers.informer(Node.class);
        this.cache = reconciler.cache();
        this.verdicts = verdicts;
        this.reconciler = reconciler;
    }

    /** Watches PodGroups, their Pods, Nodes and the scheduler's verdicts. */
    @Override
    protected void attach(Attachments attachments) {
        PodGroupCache.addIndexes(pods);
        attachments.handler(groups, new GroupHandler());
        attachments.handler(pods, workers().enqueueing(PodGroupController::groupOf));
        attachments.handler(nodes, new NodeHandler());
        Consumer<GangVerdict> verdictListener = verdict -> workers().enqueue(new ObjectKey(verdict.namespace(), verdict.podGroup()));
        verdicts.addListener(verdictListener);
        attachments.onDetach(() -> verdicts.removeListener(verdictListener));
    }

    /** The key of the group a pod joins by label, if it joins one. */
    private static Optional<ObjectKey> groupOf(Pod pod) {
        return PodGroupLabel.groupName(pod).map(group -> new ObjectKey(pod.getMetadata().getNamespace(), group));
    }

    private final class GroupHandler implements ResourceEventHandler<PodGroup> {
        @Override
        public void onAdd(PodGroup group) {
            workers().enqueue(ObjectKey.of(group));
        }

        @Override
        public void onUpdate(PodGroup oldGroup, PodGroup newGroup) {
            workers().enqueue(ObjectKey.of(newGroup));
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
            cache.membersOn(node.getMetadata().getName()).forEach(pod -> groupOf(pod).ifPresent(workers()::enqueue));
        }
    }
}
