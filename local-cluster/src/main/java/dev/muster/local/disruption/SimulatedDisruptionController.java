package dev.muster.local.disruption;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.local.informer.PodCountingStatusLoop;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * kube-controller-manager's disruption controller for the local cluster, driven only through the API: it
 * watches PodDisruptionBudgets and pods and keeps each budget's status as {@link DisruptionBudgets} computes
 * it, so that evictions ({@link EvictionSubresource}) and {@code kubectl get pdb} see current numbers. The
 * status is written through the status subresource with the resourceVersion it was computed from, and only
 * when it changed; a conflict (an eviction took a disruption meanwhile) is left to the update event that
 * follows it. A budget with admitted evictions whose pods are not deleted is looked at again when they expire.
 */
public final class SimulatedDisruptionController implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SimulatedDisruptionController.class);

    private final KubernetesClient client;
    private final PodCountingStatusLoop<PodDisruptionBudget> loop;

    private SimulatedDisruptionController(KubernetesClient client) {
        this.client = client;
        this.loop = new PodCountingStatusLoop<>("simulated disruption controller", client,
                client.policy().v1().podDisruptionBudget().inAnyNamespace().runnableInformer(0), this::sync);
    }

    /** Starts a controller that uses {@code client} (and closes it when closed), once its informers have listed. */
    public static SimulatedDisruptionController start(KubernetesClient client) {
        SimulatedDisruptionController controller = new SimulatedDisruptionController(client);
        controller.loop.start();
        return controller;
    }

    @Override
    public void close() {
        loop.close();
    }

    private void sync(String key, PodDisruptionBudget budget) {
        try {
            JsonNode budgetJson = Serialization.jsonMapper().valueToTree(budget);
            List<JsonNode> selected = loop.podsOf(budget.getMetadata().getNamespace()).stream()
                    .<JsonNode>map(pod -> Serialization.jsonMapper().valueToTree(pod))
                    .filter(pod -> DisruptionBudgets.selects(budgetJson, pod))
                    .toList();
            Instant now = Instant.now();
            ObjectNode status = DisruptionBudgets.status(budgetJson, selected, now);
            DisruptionBudgets.recheckAt(status)
                    .ifPresent(at -> loop.enqueue(key, Duration.between(now, at).plusSeconds(1)));
            PodDisruptionBudgetStatus computed = Serialization.jsonMapper().convertValue(status, PodDisruptionBudgetStatus.class);
            // Compared as model objects: the JSON trees differ in number types and empty fields.
            if (computed.equals(budget.getStatus())) {
                return;
            }
            PodDisruptionBudget updated = Serialization.clone(budget);
            updated.setStatus(computed);
            client.resource(updated).updateStatus();
            log.debug("PodDisruptionBudget {} allows {} disruptions ({} of {} healthy pods needed)", key,
                    status.path("disruptionsAllowed").asLong(), status.path("desiredHealthy").asLong(),
                    status.path("currentHealthy").asLong());
        } catch (KubernetesClientException | IllegalArgumentException e) {
            // A conflict means a newer version is on its way to the informer, which syncs the budget again.
            log.debug("could not update the status of PodDisruptionBudget {}: {}", key, e.getMessage());
        }
    }
}
