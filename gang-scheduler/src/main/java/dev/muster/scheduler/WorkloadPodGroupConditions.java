package dev.muster.scheduler;

import dev.muster.api.KubeTime;
import dev.muster.gang.GangVerdict;
import dev.muster.scheduler.core.model.GroupKey;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.Store;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.HttpURLConnection;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * Writes the scheduler's verdicts on Kubernetes PodGroups ({@link WorkloadPodGroups}) as kube-scheduler does, since
 * no PodGroup controller of Muster's owns them: the condition {@code PodGroupScheduled} (named
 * {@code PodGroupInitiallyScheduled} after {@code v1alpha2}) is {@code True} with reason {@code Scheduled} once the
 * group's quorum is placed, and stays so whatever its pods do later, as the API documents; until then it is
 * {@code False} with reason {@code Unschedulable} and the scheduler's message (why the gang does not fit, or why it
 * is held). Written only when it changes, on the status subresource with the object's resourceVersion, so another
 * writer's change is never overwritten: a conflict is read again and retried.
 */
final class WorkloadPodGroupConditions implements Consumer<GangVerdict> {
    private static final Logger log = LoggerFactory.getLogger(WorkloadPodGroupConditions.class);
    static final String REASON_SCHEDULED = "Scheduled";
    static final String REASON_UNSCHEDULABLE = "Unschedulable";
    private static final int ATTEMPTS = 3;

    private final KubernetesClient client;
    private final String apiVersion;
    private final String conditionType;
    private final Store<GenericKubernetesResource> podGroups;
    private final Executor executor;
    private final Clock clock;

    WorkloadPodGroupConditions(KubernetesClient client, String apiVersion, Store<GenericKubernetesResource> podGroups,
                               Executor executor, Clock clock) {
        this.client = client;
        this.apiVersion = apiVersion;
        this.conditionType = WorkloadPodGroups.scheduledCondition(apiVersion);
        this.podGroups = podGroups;
        this.executor = executor;
        this.clock = clock;
    }

    @Override
    public void accept(GangVerdict verdict) {
        if (verdict.outcome() == GangVerdict.Outcome.ADMITTED) {
            return;
        }
        GroupKey.podGroup(verdict.namespace(), verdict.podGroup()).workloadPodGroupName().ifPresent(name -> {
            try {
                executor.execute(() -> write(verdict, name));
            } catch (RejectedExecutionException stopping) {
                // The scheduler is stopping; the next leader writes what it decides.
            }
        });
    }

    private void write(GangVerdict verdict, String name) {
        GenericKubernetesResource current = podGroups.getByKey(Cache.namespaceKeyFunc(verdict.namespace(), name));
        for (int attempt = 1; current != null && attempt <= ATTEMPTS; attempt++) {
            GenericKubernetesResource next = withCondition(current, verdict);
            if (next == null) {
                return;
            }
            try {
                client.genericKubernetesResources(apiVersion, WorkloadPodGroups.KIND).inNamespace(verdict.namespace())
                        .resource(next).updateStatus();
                log.info("podgroups.{} {}/{}: {} {} ({})", WorkloadPodGroups.GROUP, verdict.namespace(), name,
                        conditionType, status(verdict), verdict.message());
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                    log.warn("podgroups.{} {}/{}: writing {} failed: {}", WorkloadPodGroups.GROUP, verdict.namespace(),
                            name, conditionType, e.getMessage());
                    return;
                }
                current = client.genericKubernetesResources(apiVersion, WorkloadPodGroups.KIND)
                        .inNamespace(verdict.namespace()).withName(name).get();
            }
        }
    }

    /**
     * The PodGroup with its condition set as the verdict says, or {@code null} when nothing would change: the same
     * status, reason and message, or a condition already True, which stays.
     */
    GenericKubernetesResource withCondition(GenericKubernetesResource podGroup, GangVerdict verdict) {
        Map<String, Object> status = new LinkedHashMap<>(DraObjects.map(podGroup.getAdditionalProperties().get("status")));
        List<Object> conditions = new ArrayList<>(DraObjects.list(status.get("conditions")));
        String wanted = status(verdict);
        String reason = verdict.outcome() == GangVerdict.Outcome.SCHEDULED ? REASON_SCHEDULED : REASON_UNSCHEDULABLE;
        String message = verdict.message() == null ? "" : verdict.message();
        int index = -1;
        for (int i = 0; i < conditions.size(); i++) {
            if (conditionType.equals(DraObjects.map(conditions.get(i)).get("type"))) {
                index = i;
            }
        }
        Map<String, Object> before = index < 0 ? Map.of() : DraObjects.map(conditions.get(index));
        if ("True".equals(before.get("status")) || wanted.equals(before.get("status"))
                && reason.equals(before.get("reason")) && message.equals(before.get("message"))) {
            return null;
        }
        Map<String, Object> condition = new LinkedHashMap<>();
        condition.put("type", conditionType);
        condition.put("status", wanted);
        Long generation = podGroup.getMetadata().getGeneration();
        if (generation != null) {
            condition.put("observedGeneration", generation);
        }
        condition.put("lastTransitionTime", wanted.equals(before.get("status")) && before.get("lastTransitionTime") != null
                ? before.get("lastTransitionTime") : KubeTime.format(clock.instant()));
        condition.put("reason", reason);
        condition.put("message", message);
        if (index < 0) {
            conditions.add(condition);
        } else {
            conditions.set(index, condition);
        }
        status.put("conditions", conditions);
        GenericKubernetesResource next = Serialization.jsonMapper().convertValue(podGroup, GenericKubernetesResource.class);
        next.getAdditionalProperties().put("status", status);
        return next;
    }

    private static String status(GangVerdict verdict) {
        return verdict.outcome() == GangVerdict.Outcome.SCHEDULED ? "True" : "False";
    }
}
