package dev.muster.local.store;

import dev.muster.api.KubeTime;
import dev.muster.api.PodPhase;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * What a DELETE of one object does to it, decided from plain data as kube-apiserver decides it
 * ({@code rest.BeforeDelete}, the pod strategy's {@code CheckGracefulDelete} and the generic store's handling
 * of finalizers):
 * <ul>
 * <li>A pod bound to a node and not finished is deleted gracefully: it gets {@code deletionTimestamp} (now +
 * grace period) and {@code deletionGracePeriodSeconds} and stays until its kubelet deletes it with grace period
 * 0. The grace period is the request's, else the pod's {@code terminationGracePeriodSeconds}, else 30; an
 * unbound or finished pod is deleted at once whatever was asked, and a negative grace period counts as 1.</li>
 * <li>An object with finalizers gets {@code deletionTimestamp} (now) and {@code deletionGracePeriodSeconds} 0
 * and stays until its finalizers are removed.</li>
 * <li>A second DELETE of an object that is being deleted may shorten its grace period, never lengthen it; once
 * the grace period is 0 and no finalizer is left the object is removed.</li>
 * <li>Setting {@code deletionTimestamp} increments a non-zero {@code metadata.generation}, since the object's
 * controllers are to stop acting on it.</li>
 * </ul>
 */
public final class Deletion {
    /** The grace period of a pod without {@code terminationGracePeriodSeconds}, the API server's default. */
    static final long DEFAULT_POD_GRACE_SECONDS = 30;

    /** The outcome of a DELETE. */
    public sealed interface Outcome {
    }

    /** The object leaves the store. */
    public record Remove() implements Outcome {
    }

    /** The object stays, as {@code object}, which is marked for deletion. */
    public record Mark(ObjectNode object) implements Outcome {
    }

    /** The object stays as it is: its deletion is already under way and the request does not hasten it. */
    record Unchanged() implements Outcome {
    }

    private Deletion() {
    }

    /**
     * @param stored         the object as stored
     * @param pod            whether the object is a core/v1 Pod
     * @param requestedGrace the grace period the request asks for; null if it does not say
     * @param now            the time of the request
     */
    public static Outcome of(ObjectNode stored, boolean pod, Long requestedGrace, Instant now) {
        JsonNode metadata = stored.path("metadata");
        boolean finalizers = !metadata.path("finalizers").isEmpty();
        if (metadata.hasNonNull("deletionTimestamp")) {
            return again(stored, finalizers, requestedGrace);
        }
        long grace = pod ? podGracePeriod(stored, requestedGrace) : 0;
        if (grace == 0 && !finalizers) {
            return new Remove();
        }
        ObjectNode marked = stored.deepCopy();
        ObjectNode markedMetadata = marked.withObjectProperty("metadata");
        markedMetadata.put("deletionTimestamp", timestamp(now.plusSeconds(grace)));
        markedMetadata.put("deletionGracePeriodSeconds", grace);
        long generation = metadata.path("generation").asLong(0);
        if (generation > 0) {
            markedMetadata.put("generation", generation + 1);
        }
        return new Mark(marked);
    }

    /**
     * Whether an update of the main resource removes the object, as on the API server: the object is marked for
     * deletion with no grace period left and the update leaves it no finalizer.
     */
    public static boolean completedBy(JsonNode stored, JsonNode update) {
        JsonNode metadata = stored.path("metadata");
        return metadata.hasNonNull("deletionTimestamp") && metadata.path("deletionGracePeriodSeconds").asLong(0) == 0
                && update.path("metadata").path("finalizers").isEmpty();
    }

    /** Whether a pod is finished: its phase is Succeeded or Failed. */
    public static boolean finished(JsonNode pod) {
        String phase = pod.path("status").path("phase").asText();
        return phase.equals(PodPhase.Succeeded.name()) || phase.equals(PodPhase.Failed.name());
    }

    /** A DELETE of an object whose deletion is under way. */
    private static Outcome again(ObjectNode stored, boolean finalizers, Long requestedGrace) {
        JsonNode metadata = stored.path("metadata");
        long current = metadata.path("deletionGracePeriodSeconds").asLong(0);
        if (current == 0) {
            // Nothing left to wait for but finalizers; the API server retries the removal here.
            return finalizers ? new Unchanged() : new Remove();
        }
        if (requestedGrace == null || Math.max(requestedGrace, 0) >= current) {
            return new Unchanged();
        }
        long shortened = Math.max(requestedGrace, 0);
        if (shortened == 0 && !finalizers) {
            return new Remove();
        }
        Instant deadline = KubeTime.parse(metadata.path("deletionTimestamp").asText());
        ObjectNode marked = stored.deepCopy();
        ObjectNode markedMetadata = marked.withObjectProperty("metadata");
        markedMetadata.put("deletionTimestamp", timestamp(deadline.minusSeconds(current).plusSeconds(shortened)));
        markedMetadata.put("deletionGracePeriodSeconds", shortened);
        return new Mark(marked);
    }

    private static long podGracePeriod(JsonNode pod, Long requestedGrace) {
        if (pod.path("spec").path("nodeName").asText("").isEmpty() || finished(pod)) {
            return 0;
        }
        JsonNode specified = pod.path("spec").path("terminationGracePeriodSeconds");
        long grace = requestedGrace != null ? requestedGrace
                : specified.isIntegralNumber() ? specified.asLong() : DEFAULT_POD_GRACE_SECONDS;
        return grace < 0 ? 1 : grace;
    }

    private static String timestamp(Instant instant) {
        return instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
