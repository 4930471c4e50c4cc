package dev.muster.support.event;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.UUID;

/** Records core/v1 Events about objects so that {@code kubectl describe} shows what Muster did and why. */
public final class EventRecorder {
    private static final Logger log = LoggerFactory.getLogger(EventRecorder.class);

    public static final String NORMAL = "Normal";
    public static final String WARNING = "Warning";
    /** The longest message a real API server accepts on an Event, in bytes of UTF-8. */
    public static final int MAX_MESSAGE_BYTES = 1024;
    private static final String CUT = " …";

    private final KubernetesClient client;
    private final String component;

    /**
     * @param component reporting component, e.g. {@code muster-job-controller}
     */
    public EventRecorder(KubernetesClient client, String component) {
        this.client = client;
        this.component = component;
    }

    /** Records an event; failures are logged, never thrown, since events are best-effort. */
    public void record(HasMetadata about, String type, String reason, String message) {
        String now = DateTimeFormatter.ISO_INSTANT.format(Instant.now());
        var event = new EventBuilder()
                .withNewMetadata()
                .withNamespace(about.getMetadata().getNamespace())
                .withName(about.getMetadata().getName() + "." + UUID.randomUUID().toString().substring(0, 8))
                .endMetadata()
                .withNewInvolvedObject()
                .withApiVersion(about.getApiVersion())
                .withKind(about.getKind())
                .withNamespace(about.getMetadata().getNamespace())
                .withName(about.getMetadata().getName())
                .withUid(about.getMetadata().getUid())
                .withResourceVersion(about.getMetadata().getResourceVersion())
                .endInvolvedObject()
                .withType(type)
                .withReason(reason)
                .withMessage(truncate(message))
                .withFirstTimestamp(now)
                .withLastTimestamp(now)
                .withEventTime(new MicroTime(now))
                .withCount(1)
                .withReportingComponent(component)
                .withReportingInstance(component)
                .withNewSource().withComponent(component).endSource()
                .withAction(reason)
                .build();
        try {
            client.v1().events().inNamespace(event.getMetadata().getNamespace()).resource(event).create();
        } catch (KubernetesClientException e) {
            log.debug("could not record event {} on {}/{}: {}", reason, about.getMetadata().getNamespace(),
                    about.getMetadata().getName(), e.getMessage());
        }
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
