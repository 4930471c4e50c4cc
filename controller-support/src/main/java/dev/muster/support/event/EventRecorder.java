package dev.muster.support.event;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.UUID;

/** Records core/v1 Events about objects so that {@code kubectl describe} shows what Muster did and why. */
public final class EventRecorder {
    private static final Logger log = LoggerFactory.getLogger(EventRecorder.class);

    public static final String NORMAL = "Normal";
    public static final String WARNING = "Warning";

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
                .withMessage(message)
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
}
