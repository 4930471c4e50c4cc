package dev.muster.job;

import dev.muster.api.KubeTime;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.support.controller.Controller;
import dev.muster.support.controller.ObjectKey;
import dev.muster.support.event.EventRecorder;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Puts a {@value #TYPE} condition on a Job whose reconcile keeps failing (as the Java Operator SDK's error
 * status handler does), so that {@code kubectl get -o yaml} shows what the log says. Written as a JSON merge
 * patch of {@code status.controllerConditions} alone, which no other status field's writer can lose, and only
 * when reason or message changed. The next successful status write, which never carries the condition,
 * clears it; the job's other controller conditions are kept.
 */
final class ReconcileFailureRecorder {
    private static final Logger log = LoggerFactory.getLogger(ReconcileFailureRecorder.class);

    /** Condition type on a Job whose reconcile keeps failing. */
    static final String TYPE = "ReconcileFailing";

    private final KubernetesClient client;
    private final JobCache cache;
    private final Clock clock;

    ReconcileFailureRecorder(KubernetesClient client, JobCache cache, Clock clock) {
        this.client = client;
        this.cache = cache;
        this.clock = clock;
    }

    void record(ObjectKey key, Throwable failure) {
        Job job = cache.job(key).orElse(null);
        if (job == null) {
            return;
        }
        String reason = failure.getClass().getSimpleName();
        // The count is not in the message: it would change, and be written, on every failure.
        String message = EventRecorder.truncate("reconcile has failed " + Controller.FAILING_AFTER
                + " or more times in a row; latest: " + Objects.toString(failure.getMessage(), reason));
        List<Condition> current = job.getStatus() == null ? null : job.getStatus().getControllerConditions();
        boolean same = current != null && current.stream().anyMatch(c -> TYPE.equals(c.getType())
                && reason.equals(c.getReason()) && message.equals(c.getMessage()));
        if (same) {
            return;
        }
        Condition condition = new ConditionBuilder().withType(TYPE).withStatus("True").withReason(reason)
                .withMessage(message).withObservedGeneration(job.getMetadata().getGeneration())
                .withLastTransitionTime(KubeTime.format(Instant.now(clock)))
                .build();
        // A merge patch replaces the whole list: the job's other conditions (FieldsNotHonoured) go along.
        List<Condition> conditions = new ArrayList<>(current == null ? List.of()
                : current.stream().filter(c -> !TYPE.equals(c.getType())).toList());
        conditions.add(condition);
        String patch = Serialization.asJson(Map.of("status", Map.of("controllerConditions", conditions)));
        try {
            client.resources(Job.class).inNamespace(key.namespace()).withName(key.name()).subresource("status")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
            log.warn("job {}: reconcile keeps failing ({}); condition {} written", key, reason, TYPE);
        } catch (KubernetesClientException e) {
            log.debug("job {}: could not write condition {}: {}", key, TYPE, e.getMessage());
        }
    }
}
