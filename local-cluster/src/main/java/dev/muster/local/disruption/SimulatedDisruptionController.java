package dev.muster.local.disruption;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.local.informer.InformerSync;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

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
    private final SharedIndexInformer<PodDisruptionBudget> budgetInformer;
    private final SharedIndexInformer<Pod> podInformer;
    /** One thread: budgets are synced one at a time, each at most once per wake-up. */
    private final ScheduledExecutorService worker;
    private final Set<String> queued = ConcurrentHashMap.newKeySet();

    private SimulatedDisruptionController(KubernetesClient client) {
        this.client = client;
        this.budgetInformer = client.policy().v1().podDisruptionBudget().inAnyNamespace().runnableInformer(0);
        this.podInformer = client.pods().inAnyNamespace().runnableInformer(0);
        this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "simulated-disruption-controller");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Starts a controller that uses {@code client} (and closes it when closed), once both informers have listed. */
    public static SimulatedDisruptionController start(KubernetesClient client) {
        SimulatedDisruptionController controller = new SimulatedDisruptionController(client);
        controller.budgetInformer.addEventHandler(controller.new BudgetHandler());
        controller.podInformer.addEventHandler(controller.new PodHandler());
        InformerSync.awaitAll("simulated disruption controller", controller::close,
                controller.podInformer, controller.budgetInformer);
        return controller;
    }

    @Override
    public void close() {
        budgetInformer.close();
        podInformer.close();
        worker.shutdownNow();
        client.close();
    }

    private void enqueue(String key, Duration delay) {
        if (queued.add(key + "@" + delay.toMillis())) {
            worker.schedule(() -> {
                queued.remove(key + "@" + delay.toMillis());
                sync(key);
            }, delay.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private void enqueueBudgetsOf(Pod pod) {
        String namespace = pod.getMetadata().getNamespace();
        budgetInformer.getIndexer().byIndex(Cache.NAMESPACE_INDEX, namespace)
                .forEach(budget -> enqueue(Cache.metaNamespaceKeyFunc(budget), Duration.ZERO));
    }

    private void sync(String key) {
        PodDisruptionBudget budget = budgetInformer.getStore().getByKey(key);
        if (budget == null) {
            return;
        }
        try {
            JsonNode budgetJson = Serialization.jsonMapper().valueToTree(budget);
            List<JsonNode> selected = podInformer.getIndexer().byIndex(Cache.NAMESPACE_INDEX,
                            budget.getMetadata().getNamespace()).stream()
                    .<JsonNode>map(pod -> Serialization.jsonMapper().valueToTree(pod))
                    .filter(pod -> DisruptionBudgets.selects(budgetJson, pod))
                    .toList();
            Instant now = Instant.now();
            ObjectNode status = DisruptionBudgets.status(budgetJson, selected, now);
            DisruptionBudgets.recheckAt(status)
                    .ifPresent(at -> enqueue(key, Duration.between(now, at).plusSeconds(1)));
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

    private final class BudgetHandler implements ResourceEventHandler<PodDisruptionBudget> {
        @Override
        public void onAdd(PodDisruptionBudget budget) {
            enqueue(Cache.metaNamespaceKeyFunc(budget), Duration.ZERO);
        }

        @Override
        public void onUpdate(PodDisruptionBudget oldBudget, PodDisruptionBudget newBudget) {
            enqueue(Cache.metaNamespaceKeyFunc(newBudget), Duration.ZERO);
        }

        @Override
        public void onDelete(PodDisruptionBudget budget, boolean deletedFinalStateUnknown) {
            // nothing left to keep up to date
        }
    }

    private final class PodHandler implements ResourceEventHandler<Pod> {
        @Override
        public void onAdd(Pod pod) {
            enqueueBudgetsOf(pod);
        }

        @Override
        public void onUpdate(Pod oldPod, Pod newPod) {
            enqueueBudgetsOf(newPod);
        }

        @Override
        public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
            enqueueBudgetsOf(pod);
        }
    }
}
