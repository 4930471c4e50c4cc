package dev.muster.support.event;

import dev.muster.api.KubeTime;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Records core/v1 Events about objects so that {@code kubectl describe} shows what Muster did and why. A
 * repeat of an Event already written (same object, type, reason and message) raises that Event's count
 * with a PATCH instead of creating another, and many different messages of one reason on one object are
 * combined into one Event, as client-go's recorder does: {@link EventCorrelator} decides, this writes.
 * The decision is made on the caller's thread, in the order of the calls; the write is made afterwards on
 * {@link EventWriteLanes}, so recording costs a reconcile no round trip to the API server.
 */
public final class EventRecorder {
    private static final Logger log = LoggerFactory.getLogger(EventRecorder.class);

    public static final String NORMAL = "Normal";
    public static final String WARNING = "Warning";
    /** The longest message a real API server accepts on an Event, in bytes of UTF-8. */
    public static final int MAX_MESSAGE_BYTES = 1024;
    private static final String CUT = " …";
    /**
     * Where the Event of an object without a namespace (a Queue, a ResourceSlice) is written, as client-go's
     * recorder writes it: an Event is namespaced, and its involvedObject keeps the object's empty namespace.
     */
    static final String CLUSTER_SCOPED_EVENTS = "default";
    private static final int NOT_FOUND = 404;
    private static final int CONFLICT = 409;

    /** Objects whose Events are written at once, and Events queued per lane (client-go queues 1,000 in all). */
    private static final int LANES = 4;
    private static final int QUEUED_PER_LANE = 250;

    private final KubernetesClient client;
    private final String component;
    private final EventCorrelator correlator = new EventCorrelator(() -> UUID.randomUUID().toString().substring(0, 8));
    private final EventWriteLanes lanes;

    /**
     * @param component reporting component, e.g. {@code muster-job-controller}
     */
    public EventRecorder(KubernetesClient client, String component) {
        this.client = client;
        this.component = component;
        this.lanes = new EventWriteLanes(component, LANES, QUEUED_PER_LANE);
    }

    /**
     * Records an event: decides now whether it is new or a repeat, and writes it shortly after on another
     * thread. Failures are logged, never thrown, since events are best-effort.
     */
    public void record(HasMetadata about, String type, String reason, String message) {
        ObjectMeta meta = about.getMetadata();
        Instant now = Instant.now();
        EventCorrelator.About object = new EventCorrelator.About(about.getApiVersion(), about.getKind(),
                meta.getNamespace(), meta.getName(), meta.getUid());
        EventCorrelator.Decision decision = correlator.correlate(
                new EventCorrelator.Incoming(object, type, reason, message), now);
        // Taken now: the caller may change its object before the write.
        ObjectReference involved = new ObjectReferenceBuilder().withApiVersion(about.getApiVersion())
                .withKind(about.getKind()).withNamespace(meta.getNamespace()).withName(meta.getName())
                .withUid(meta.getUid()).withResourceVersion(meta.getResourceVersion()).build();
        if (!lanes.submit(object, () -> write(involved, type, reason, decision, now))) {
            log.warn("event writes are queued beyond {} per lane: dropped {} {} on {}/{}", QUEUED_PER_LANE, type,
                    reason, meta.getNamespace(), meta.getName());
        }
    }

    private void write(ObjectReference about, String type, String reason, EventCorrelator.Decision decision,
                       Instant now) {
        try {
            if (decision.create()) {
                create(about, type, reason, decision, now);
            } else {
                patchOrCreate(about, type, reason, decision, now);
            }
        } catch (KubernetesClientException e) {
            log.debug("could not record event {} on {}/{}: {}", reason, about.getNamespace(), about.getName(),
                    e.getMessage());
        }
    }

    /**
     * Raises the count of the Event already written; if it is gone (Events expire, an hour by default on a
     * real API server) or not created yet by another thread, writes it whole under its name, as client-go
     * does.
     */
    private void patchOrCreate(ObjectReference about, String type, String reason, EventCorrelator.Decision decision,
                               Instant now) {
        try {
            patch(about, decision, now);
        } catch (KubernetesClientException e) {
            if (e.getCode() != NOT_FOUND) {
                throw e;
            }
            try {
                create(about, type, reason, decision, now);
            } catch (KubernetesClientException raced) {
                if (raced.getCode() != CONFLICT) {
                    throw raced;
                }
                patch(about, decision, now);
            }
        }
    }

    private void patch(ObjectReference about, EventCorrelator.Decision decision, Instant now) {
        Map<String, Object> change = new LinkedHashMap<>();
        change.put("count", decision.count());
        change.put("lastTimestamp", KubeTime.format(now));
        change.put("message", truncate(decision.message()));
        client.v1().events().inNamespace(eventNamespace(about)).withName(decision.name())
                .patch(PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(change));
    }

    private void create(ObjectReference about, String type, String reason, EventCorrelator.Decision decision,
                        Instant now) {
        var event = new EventBuilder()
                .withNewMetadata()
                .withNamespace(eventNamespace(about))
                .withName(decision.name())
                .endMetadata()
                .withInvolvedObject(about)
                .withType(type)
                .withReason(reason)
                .withMessage(truncate(decision.message()))
                .withFirstTimestamp(KubeTime.format(decision.firstSeen()))
                .withLastTimestamp(KubeTime.format(now))
                .withEventTime(new MicroTime(KubeTime.formatMicro(decision.firstSeen())))
                .withCount(decision.count())
                .withReportingComponent(component)
                .withReportingInstance(component)
                .withNewSource().withComponent(component).endSource()
                .withAction(reason)
                .build();
        client.v1().events().inNamespace(event.getMetadata().getNamespace()).resource(event).create();
    }

    private static String eventNamespace(ObjectReference about) {
        return about.getNamespace() == null || about.getNamespace().isEmpty() ? CLUSTER_SCOPED_EVENTS
                : about.getNamespace();
    }

    /**
     * The message cut to {@link #MAX_MESSAGE_BYTES} bytes of UTF-8, on a character boundary and ending in
     * " …" when cut: the API server refuses a longer Event, which would lose it altogether.
     */
    public static String truncate(String message) {
        if (message == null || message.getBytes(StandardCharsets.UTF_8).length <= MAX_MESSAGE_BYTES) {
            return message;
        }
        int budget = MAX_MESSAGE_BYTES - CUT.getBytes(StandardCharsets.UTF_8).length;
        StringBuilder kept = new StringBuilder();
        int bytes = 0;
        for (int i = 0; i < message.length(); ) {
            int codePoint = message.codePointAt(i);
            int size = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8).length;
            if (bytes + size > budget) {
                break;
            }
            kept.appendCodePoint(codePoint);
            bytes += size;
            i += Character.charCount(codePoint);
        }
        return kept.append(CUT).toString();
    }
}
