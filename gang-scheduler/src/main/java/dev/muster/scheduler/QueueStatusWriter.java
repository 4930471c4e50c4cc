package dev.muster.scheduler;

import dev.muster.api.batch.v1alpha1.validation.FieldError;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.api.scheduling.v1alpha1.QueueCondition;
import dev.muster.api.scheduling.v1alpha1.QueueSpec;
import dev.muster.api.scheduling.v1alpha1.QueueStatus;
import dev.muster.api.scheduling.v1alpha1.QueueTreeValidator;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.queue.QueueStanding;
import dev.muster.support.status.StatusRecorder;
import dev.muster.support.status.StatusWriter;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.cache.Store;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Writes each Queue's status from a cycle's standings: {@code allocated}, {@code fairShare} and {@code demand}
 * as resource lists, the {@code pending} and {@code running} gang counts, and the {@code Valid} condition from
 * {@link QueueTreeValidator} over every Queue the informer holds. Writes go through a {@link StatusRecorder}:
 * only when the status changed, with the resourceVersion of the informer's copy (a 409 drops the write; the
 * next cycle writes from the fresh copy), and a change of amounts and counts alone no more often than the
 * controllers' counter-write interval, while a change of the {@code Valid} condition is written at once.
 * A queue is written by one API call at a time, on the API executor.
 */
final class QueueStatusWriter {
    private static final Logger log = LoggerFactory.getLogger(QueueStatusWriter.class);

    private final StatusRecorder<QueueStatus> recorder;
    private final Store<Queue> queues;
    private final Executor executor;
    private final Clock clock;
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();

    /**
     * @param recorder writes the status; its pacing interval is the counter-write interval
     * @param queues   the Queue informer's store
     * @param executor runs the API calls
     */
    QueueStatusWriter(StatusRecorder<QueueStatus> recorder, Store<Queue> queues, Executor executor, Clock clock) {
        this.recorder = recorder;
        this.queues = queues;
        this.executor = executor;
        this.clock = clock;
    }

    /**
     * The recorder's test of a change of amounts and counts alone: the conditions read the same. Such writes
     * are paced.
     */
    static boolean countersOnly(QueueStatus current, QueueStatus desired) {
        return sameConditions(current.getConditions(), desired.getConditions());
    }

    /** Starts writing the status of every Queue object the standings name whose status would change. */
    void write(List<QueueStanding> standings) {
        Map<String, QueueSpec> specs = new HashMap<>();
        for (Queue queue : queues.list()) {
            specs.put(queue.getMetadata().getName(), queue.getSpec());
        }
        Map<String, List<FieldError>> problems = QueueTreeValidator.validate(specs);
        Instant now = clock.instant();
        for (QueueStanding standing : standings) {
            Queue queue = queues.getByKey(standing.name());
            if (queue == null) {
                // The default queue before the manager creates its object: nothing to write to.
                continue;
            }
            QueueStatus desired = status(standing, problems.getOrDefault(standing.name(), List.of()), queue.getStatus(), now);
            if (sameStatus(queue.getStatus(), desired) || !inFlight.add(standing.name())) {
                continue;
            }
            try {
                executor.execute(() -> {
                    try {
                        record(standing.name(), desired, now);
                    } finally {
                        inFlight.remove(standing.name());
                    }
                });
            } catch (RejectedExecutionException stopping) {
                inFlight.remove(standing.name());
            }
        }
    }

    private void record(String name, QueueStatus desired, Instant now) {
        Queue current = queues.getByKey(name);
        if (current == null) {
            return;
        }
        boolean urgent = current.getStatus() == null
                || !sameConditions(current.getStatus().getConditions(), desired.getConditions());
        try {
            StatusRecorder.Outcome outcome = recorder.record(current, new StatusRecorder.Update<>(desired, List.of(), urgent), now);
            if (outcome.written() && urgent) {
                QueueCondition valid = desired.getConditions().get(0);
                log.info("queue {}: Valid={} {}", name, valid.getStatus(), valid.getMessage());
            }
        } catch (KubernetesClientException e) {
            // A conflict means the informer's copy is old; the next cycle writes from a fresh one.
            log.debug("queue {}: status not written: {}", name, e.getMessage());
        }
    }

    /** The status for a standing, the {@code Valid} condition keeping its transition time while it holds. */
    static QueueStatus status(QueueStanding standing, List<FieldError> problems, QueueStatus current, Instant now) {
        QueueStatus status = new QueueStatus();
        status.setAllocated(quantities(standing.allocated()));
        status.setFairShare(quantities(standing.fairShare()));
        status.setDemand(quantities(standing.demand()));
        status.setPending(standing.pendingGangs());
        status.setRunning(standing.runningGangs());
        QueueCondition valid = QueueCondition.valid(problems);
        valid.setLastTransitionTime(now.truncatedTo(ChronoUnit.SECONDS).toString());
        if (current != null && current.getConditions() != null) {
            current.getConditions().stream()
                    .filter(c -> QueueCondition.VALID.equals(c.getType()) && valid.getStatus().equals(c.getStatus())
                            && c.getLastTransitionTime() != null)
                    .findFirst()
                    .ifPresent(c -> valid.setLastTransitionTime(c.getLastTransitionTime()));
        }
        status.setConditions(List.of(valid));
        return status;
    }

    private static Map<String, Quantity> quantities(ResourceVector vector) {
        Map<String, Quantity> quantities = ResourceQuantities.toQuantities(vector);
        return quantities.isEmpty() ? null : quantities;
    }

    private static boolean sameStatus(QueueStatus current, QueueStatus desired) {
        return current != null && StatusWriter.sameJson(current, desired);
    }

    /** Whether two lists of conditions say the same, transition times aside; none and an empty list alike. */
    static boolean sameConditions(List<QueueCondition> a, List<QueueCondition> b) {
        List<QueueCondition> first = a == null ? List.of() : a;
        List<QueueCondition> second = b == null ? List.of() : b;
        if (first.size() != second.size()) {
            return false;
        }
        for (int i = 0; i < first.size(); i++) {
            QueueCondition x = first.get(i);
            QueueCondition y = second.get(i);
            if (!Objects.equals(x.getType(), y.getType()) || !Objects.equals(x.getStatus(), y.getStatus())
                    || !Objects.equals(x.getReason(), y.getReason()) || !Objects.equals(x.getMessage(), y.getMessage())) {
                return false;
            }
        }
        return true;
    }
}
