package dev.muster.scheduler.autoscaling;

import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.placement.GangPlacement;
import dev.muster.support.autoscaling.PodsForAutoscaler;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.cache.Store;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * Pending-pods mode ({@code muster.scheduler.autoscaling: pending-pods}), for autoscalers that watch pending pods
 * (Karpenter, Cluster Autoscaler without ProvisioningRequests): a gang that its queue would admit now but that
 * does not fit the current nodes ({@link CapacityNeeds}) has its PodGroup marked ({@link PodsForAutoscaler}), on
 * which the Job controller creates its pods before admission. The cycles after leave them unbound with
 * {@code PodScheduled=False}, reason {@code Unschedulable}, as kube-scheduler does, and bind the gang all at once
 * when its quorum fits; once it is placed, the mark is removed. The mark is a merge patch of one annotation, which
 * clobbers no other writer.
 */
public final class PendingPodsRelease implements AutoscalerSignal {
    private static final Logger log = LoggerFactory.getLogger(PendingPodsRelease.class);
    private static final String RELEASED = "Its pods are created and left pending, unschedulable, for the cluster "
            + "autoscaler to see (autoscaling: pending-pods); they are bound all at once when the gang fits.";

    private final KubernetesClient client;
    private final Executor apiCalls;
    private final Store<PodGroup> podGroups;
    /** PodGroups being marked, by namespace/name: not marked twice meanwhile. */
    private final Set<String> marking = ConcurrentHashMap.newKeySet();

    public PendingPodsRelease(KubernetesClient client, Executor apiCalls, Store<PodGroup> podGroups) {
        this.client = client;
        this.apiCalls = apiCalls;
        this.podGroups = podGroups;
    }

    @Override
    public Map<GroupKey, String> cycle(Collection<PendingGang> gangs, List<GangPlacement> results, Instant now) {
        Map<GroupKey, String> said = new HashMap<>();
        for (CapacityNeed need : CapacityNeeds.of(gangs, results, gang -> "pending-pods")) {
            GroupKey gang = need.gang();
            String key = gang.namespace() + "/" + gang.name();
            said.put(gang, RELEASED);
            PodGroup group = podGroups.getByKey(key);
            if (group != null && !PodsForAutoscaler.marked(group) && marking.add(key)) {
                apiCalls.execute(() -> mark(gang, key));
            }
        }
        // Once placed, the mark goes: a job that waits again later (preempted, restarted) waits without pods until
        // it is short of room again.
        for (GangPlacement result : results) {
            GroupKey gang = result.gang().key();
            String key = gang.namespace() + "/" + gang.name();
            if (result.placed() && !gang.standalonePod() && PodsForAutoscaler.marked(podGroups.getByKey(key))
                    && marking.add(key)) {
                apiCalls.execute(() -> mark(gang, key, null));
            }
        }
        return said;
    }

    private void mark(GroupKey gang, String key) {
        mark(gang, key, "true");
    }

    /** Sets the mark, or with {@code null} removes it. */
    private void mark(GroupKey gang, String key, String value) {
        Map<String, Object> annotations = new HashMap<>();
        annotations.put(PodsForAutoscaler.ANNOTATION, value);
        try {
            client.resources(PodGroup.class).inNamespace(gang.namespace()).withName(gang.name())
                    .patch(PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(Map.of("metadata",
                            Map.of("annotations", annotations))));
            log.info(value != null ? "{}: does not fit the nodes; its pods are to be created pending for the cluster "
                    + "autoscaler" : "{}: placed; its PodGroup is no longer marked for pending pods", gang);
        } catch (KubernetesClientException e) {
            log.info("{}: could not mark the PodGroup for pending pods, tried again next cycle: {}", gang,
                    e.getMessage());
        } finally {
            marking.remove(key);
        }
    }

    @Override
    public void close() {
    }
}
