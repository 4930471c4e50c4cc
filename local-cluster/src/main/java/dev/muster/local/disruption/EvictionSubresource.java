package dev.muster.local.disruption;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.api.PodPreemption;
import dev.muster.local.protocol.StatusResponses;
import dev.muster.local.store.DeleteRequest;
import dev.muster.local.store.Deletion;
import dev.muster.local.store.StoredObjects;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.mockwebserver.http.MockResponse;

import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Eviction API, {@code POST /api/v1/namespaces/{ns}/pods/{name}/eviction} with a {@code policy/v1} (or
 * {@code v1beta1}) Eviction, decided as kube-apiserver's eviction REST handler decides it:
 * <ul>
 * <li>A pod that is Pending, finished or already being deleted, or that no PodDisruptionBudget selects, is
 * deleted. A pod selected by more than one budget is refused (500), as the API server does not support it.</li>
 * <li>Otherwise the budget's stored status decides (the local cluster's disruption controller keeps it):
 * a budget whose status is older than its spec answers 429; a pod that is not Ready is deleted without
 * using the budget when the budget's {@code unhealthyPodEvictionPolicy} is {@code AlwaysAllow}, or is
 * {@code IfHealthyBudget} (the default) and the budget has its desired healthy pods; a budget with no
 * disruption allowed answers 429 TooManyRequests, "Cannot evict pod as it would violate the pod's
 * disruption budget."; else one disruption is taken from the budget and the pod recorded in its
 * {@code status.disruptedPods} before the pod is deleted.</li>
 * <li>Before the deletion the pod gets condition {@code DisruptionTarget=True}, reason
 * {@code EvictionByEvictionAPI}. The deletion is the one a DELETE does ({@link Deletion}), with the
 * Eviction's {@code deleteOptions}: grace period and preconditions. {@code dryRun} there is refused (400); the
 * query's {@code dryRun=All}, as on any create, makes the eviction a dry run.</li>
 * <li>Success answers 201 with a {@code Success} Status.</li>
 * </ul>
 */
public final class EvictionSubresource {
    static final String EVICTION_BY_EVICTION_API = "EvictionByEvictionAPI";
    private static final Pattern POD_EVICTION = Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/]+)/eviction");
    private static final int TOO_MANY_REQUESTS = 429;
    private static final String VIOLATES_BUDGET = "Cannot evict pod as it would violate the pod's disruption budget.";
    /** The API server refuses evictions while this many admitted ones are unconfirmed by the controller. */
    private static final int MAX_DISRUPTED_PODS = 2000;

    private final StoredObjects store;
    private final BiFunction<String, DeleteRequest, MockResponse> deleter;
    private final Clock clock;

    /**
     * @param deleter deletes the object at a path as a DELETE with these options does
     */
    public EvictionSubresource(StoredObjects store, BiFunction<String, DeleteRequest, MockResponse> deleter, Clock clock) {
        this.store = store;
        this.deleter = deleter;
        this.clock = clock;
    }

    /** Whether a POST to {@code path} (without query) is an eviction. */
    public static boolean isEviction(String path) {
        return POD_EVICTION.matcher(path).matches();
    }

    /**
     * Evicts the pod. The caller must keep other writes out until this returns: the budget's check, its
     * decrement and the deletion are one step.
     */
    public MockResponse evict(String path, JsonNode eviction) {
        Matcher matcher = POD_EVICTION.matcher(path);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("not an eviction path: " + path);
        }
        String namespace = matcher.group(1);
        String podName = matcher.group(2);
        String evictionName = eviction.path("metadata").path("name").asText("");
        if (!evictionName.isEmpty() && !evictionName.equals(podName)) {
            return StatusResponses.badRequest("name in URL does not match name in Eviction object");
        }
        JsonNode options = eviction.path("deleteOptions");
        if (!options.path("dryRun").isEmpty()) {
            return StatusResponses.badRequest("deleteOptions.dryRun is not supported by the local cluster's API emulator");
        }
        DeleteRequest delete;
        try {
            delete = DeleteRequest.of(options);
        } catch (IllegalArgumentException e) {
            return StatusResponses.badRequest(e.getMessage());
        }
        String podPath = "/api/v1/namespaces/" + namespace + "/pods/" + podName;
        ObjectNode pod = store.get(podPath).orElse(null);
        if (pod == null) {
            return StatusResponses.notFound("pods", podName);
        }
        String refused = delete.preconditionFailure(pod);
        if (refused != null) {
            return StatusResponses.conflict("pods", podName, refused);
        }
        if (canIgnoreBudgets(pod)) {
            return markAndDelete(podPath, pod, delete);
        }
        List<ObjectNode> budgets;
        try {
            budgets = store.list("/apis/policy/v1/namespaces/" + namespace + "/poddisruptionbudgets").stream()
                    .filter(budget -> DisruptionBudgets.selects(budget, pod)).toList();
        } catch (IllegalArgumentException e) {
            return StatusResponses.internalError("a PodDisruptionBudget in " + namespace + " cannot be read: " + e.getMessage());
        }
        if (budgets.size() > 1) {
            return StatusResponses.internalError(
                    "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.");
        }
        if (budgets.isEmpty()) {
            return markAndDelete(podPath, pod, delete);
        }
        ObjectNode budget = budgets.get(0);
        if (!DisruptionBudgets.healthy(pod) && unhealthyMayGo(budget)) {
            return markAndDelete(podPath, pod, delete);
        }
        MockResponse taken = takeDisruption(budget, podName);
        return taken != null ? taken : markAndDelete(podPath, store.get(podPath).orElse(pod), delete);
    }

    /** As {@code canIgnorePDB}: Pending, finished and terminating pods are not counted by any budget. */
    private static boolean canIgnoreBudgets(JsonNode pod) {
        return "Pending".equals(pod.path("status").path("phase").asText()) || Deletion.finished(pod)
                || pod.path("metadata").hasNonNull("deletionTimestamp");
    }

    private static boolean unhealthyMayGo(JsonNode budget) {
        JsonNode status = budget.path("status");
        if ("AlwaysAllow".equals(budget.path("spec").path("unhealthyPodEvictionPolicy").asText())) {
            return true;
        }
        long desired = status.path("desiredHealthy").asLong(0);
        return desired > 0 && status.path("currentHealthy").asLong(0) >= desired;
    }

    /** Takes one disruption from the budget; null if it did, else the refusal. */
    private MockResponse takeDisruption(ObjectNode budget, String podName) {
        String name = budget.path("metadata").path("name").asText();
        JsonNode status = budget.path("status");
        if (status.path("observedGeneration").asLong(0) < budget.path("metadata").path("generation").asLong(0)) {
            return tooManyRequests("The disruption budget " + name + " is still being processed by the server.");
        }
        long allowed = status.path("disruptionsAllowed").asLong(0);
        if (allowed < 0) {
            return StatusResponses.forbidden("poddisruptionbudgets", name, "pdb disruptions allowed is negative");
        }
        if (status.path("disruptedPods").size() > MAX_DISRUPTED_PODS) {
            return StatusResponses.forbidden("poddisruptionbudgets", name,
                    "DisruptedPods map too big - too many evictions not confirmed by PDB controller");
        }
        if (allowed == 0) {
            return tooManyRequests("The disruption budget " + name + " needs " + status.path("desiredHealthy").asLong(0)
                    + " healthy pods and has " + status.path("currentHealthy").asLong(0) + " currently");
        }
        ObjectNode written = budget.withObjectProperty("status");
        written.put("disruptionsAllowed", allowed - 1);
        written.withObjectProperty("disruptedPods").put(podName, now().toString());
        String budgetPath = "/apis/policy/v1/namespaces/" + budget.path("metadata").path("namespace").asText()
                + "/poddisruptionbudgets/" + name + "/status";
        MockResponse response = store.replace(budgetPath, budget);
        return response.code() == HttpURLConnection.HTTP_OK ? null : response;
    }

    /**
     * Adds the {@code DisruptionTarget} condition and deletes the pod. The condition write changes the pod's
     * resourceVersion, so a resourceVersion precondition, already checked, is not checked again.
     */
    private MockResponse markAndDelete(String podPath, ObjectNode pod, DeleteRequest delete) {
        if (setDisruptionTarget(pod.withObjectProperty("status").withArrayProperty("conditions"))) {
            MockResponse written = store.replace(podPath + "/status", pod);
            if (written.code() != HttpURLConnection.HTTP_OK) {
                return written;
            }
        }
        MockResponse deleted = deleter.apply(podPath, new DeleteRequest(delete.gracePeriodSeconds(), delete.uidPrecondition(), null));
        if (deleted.code() != HttpURLConnection.HTTP_OK) {
            return deleted;
        }
        Status success = new StatusBuilder().withStatus("Success").withCode(HttpURLConnection.HTTP_CREATED).build();
        return StatusResponses.json(HttpURLConnection.HTTP_CREATED, success);
    }

    /** Sets the condition as {@code UpdatePodCondition} does; false if the pod already says exactly this. */
    private boolean setDisruptionTarget(ArrayNode conditions) {
        String message = "Eviction API: evicting";
        String since = now().toString();
        for (int i = 0; i < conditions.size(); i++) {
            JsonNode existing = conditions.get(i);
            if (!PodPreemption.DISRUPTION_TARGET.equals(existing.path("type").asText())) {
                continue;
            }
            if ("True".equals(existing.path("status").asText())) {
                if (EVICTION_BY_EVICTION_API.equals(existing.path("reason").asText())
                        && message.equals(existing.path("message").asText())) {
                    return false;
                }
                since = existing.path("lastTransitionTime").asText(since);
            }
            conditions.remove(i);
            break;
        }
        conditions.addObject().put("type", PodPreemption.DISRUPTION_TARGET).put("status", "True")
                .put("reason", EVICTION_BY_EVICTION_API).put("message", message)
                .put("lastTransitionTime", since);
        return true;
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.SECONDS);
    }

    private static MockResponse tooManyRequests(String cause) {
        Status status = new StatusBuilder().withStatus("Failure").withCode(TOO_MANY_REQUESTS).withReason("TooManyRequests")
                .withMessage(VIOLATES_BUDGET)
                .withNewDetails().addNewCause().withReason("DisruptionBudget").withMessage(cause).endCause().endDetails()
                .build();
        return StatusResponses.json(TOO_MANY_REQUESTS, status);
    }
}
