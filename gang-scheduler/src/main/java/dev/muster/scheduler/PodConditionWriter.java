package dev.muster.scheduler;

import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.api.PodNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.Store;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Tells pods the scheduler cannot place why, with condition {@code PodScheduled=False}, reason
 * {@code Unschedulable}, as kube-scheduler does, so that the cluster autoscaler and users see it.
 *
 * <p>A pod is written only when its condition would change, judged from the informer's copy. The write
 * is a JSON merge patch of the status subresource that carries the resourceVersion it was computed
 * from: if anyone changed the pod meanwhile (the kubelet, a binding), the API server answers 409 and the
 * write is dropped rather than clobbering theirs; the next cycle decides again from fresh state.
 */
final class PodConditionWriter {
    static final String POD_SCHEDULED = "PodScheduled";
    private static final Logger log = LoggerFactory.getLogger(PodConditionWriter.class);

    private final KubernetesClient client;
    private final Store<Pod> pods;
    private final Executor executor;
    private final Clock clock;
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();

    /**
     * @param pods     the pod informer's store, read for the current conditions and resourceVersion
     * @param executor runs the API calls
     */
    PodConditionWriter(KubernetesClient client, Store<Pod> pods, Executor executor, Clock clock) {
        this.client = client;
        this.pods = pods;
        this.executor = executor;
        this.clock = clock;
    }

    /** Sets the pod's PodScheduled condition to False/Unschedulable with the message, unless it says so. */
    void markUnschedulable(String namespace, String name, String message) {
        String key = Cache.namespaceKeyFunc(namespace, name);
        if (!needsWrite(pods.getByKey(key), message) || !inFlight.add(key)) {
            return;
        }
        try {
            executor.execute(() -> {
                try {
                    write(key, message);
                } finally {
                    inFlight.remove(key);
                }
            });
        } catch (RejectedExecutionException stopping) {
            inFlight.remove(key);
        }
    }

    private void write(String key, String message) {
        Pod pod = pods.getByKey(key);
        if (!needsWrite(pod, message)) {
            return;
        }
        Map<String, Object> patch = Map.of(
                "metadata", Map.of("resourceVersion", pod.getMetadata().getResourceVersion()),
                "status", Map.of("conditions", conditionsWith(pod, message)));
        try {
            client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
                    .subresource("status")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), client.getKubernetesSerialization().asJson(patch));
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_CONFLICT || e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                log.debug("pod {} changed or went away before its PodScheduled condition was written", key);
            } else {
                log.warn("writing PodScheduled condition of pod {} failed: {}", key, e.getMessage());
            }
        }
    }

    private static boolean needsWrite(Pod pod, String message) {
        if (pod == null || PodNode.isBound(pod)) {
            return false;
        }
        PodCondition current = podScheduled(pod);
        return current == null || !"False".equals(current.getStatus()) || !PodGroupCondition.UNSCHEDULABLE.equals(current.getReason())
                || !message.equals(current.getMessage());
    }

    /** The pod's conditions with PodScheduled replaced; a merge patch replaces the whole list. */
    private List<PodCondition> conditionsWith(Pod pod, String message) {
        PodCondition current = podScheduled(pod);
        String since = current != null && "False".equals(current.getStatus()) && current.getLastTransitionTime() != null
                ? current.getLastTransitionTime()
                : clock.instant().truncatedTo(ChronoUnit.SECONDS).toString();
        PodCondition unschedulable = new PodConditionBuilder().withType(POD_SCHEDULED).withStatus("False")
                .withReason(PodGroupCondition.UNSCHEDULABLE).withMessage(message).withLastTransitionTime(since).build();
        List<PodCondition> conditions = new ArrayList<>();
        if (pod.getStatus() != null && pod.getStatus().getConditions() != null) {
            for (PodCondition condition : pod.getStatus().getConditions()) {
                if (!POD_SCHEDULED.equals(condition.getType())) {
                    conditions.add(condition);
                }
            }
        }
        conditions.add(unschedulable);
        return conditions;
    }

    private static PodCondition podScheduled(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return null;
        }
        return pod.getStatus().getConditions().stream().filter(c -> POD_SCHEDULED.equals(c.getType()))
                .findFirst().orElse(null);
    }
}
