package dev.muster.support.informer;

import dev.muster.api.read.LenientlyRead;
import dev.muster.api.read.ReadFailure;
import dev.muster.support.event.EventRecorder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reports objects an informer could read only in part ({@link LenientlyRead}): once per resourceVersion, a
 * WARN line naming kind, namespace/name and the field, a Warning Event {@value #REASON} on the object, and
 * the counter {@value #METRIC} tagged by kind. What to do about such an object (fail a Job, skip a
 * PodGroup) is each controller's own decision; this only makes sure nobody has to guess why.
 */
public final class UnreadableObjects implements ResourceEventHandler<HasMetadata> {
    private static final Logger log = LoggerFactory.getLogger(UnreadableObjects.class);

    /** Event reason on an object that could not be read whole. */
    public static final String REASON = "Unreadable";
    /** Counter of reported objects, tagged {@code kind}. */
    public static final String METRIC = "muster.objects.unreadable";

    private final EventRecorder events;
    private final MeterRegistry meters;
    /** uid (or namespace/name) to the resourceVersion last reported. */
    private final Map<String, String> reported = new ConcurrentHashMap<>();

    public UnreadableObjects(EventRecorder events, MeterRegistry meters) {
        this.events = events;
        this.meters = meters;
    }

    @Override
    public void onAdd(HasMetadata object) {
        check(object);
    }

    @Override
    public void onUpdate(HasMetadata oldObject, HasMetadata newObject) {
        check(newObject);
    }

    @Override
    public void onDelete(HasMetadata object, boolean deletedFinalStateUnknown) {
        reported.remove(identity(object));
    }

    private void check(HasMetadata object) {
        Optional<ReadFailure> failure = object instanceof LenientlyRead read ? read.readFailure() : Optional.empty();
        if (failure.isEmpty()) {
            reported.remove(identity(object));
            return;
        }
        String version = object.getMetadata().getResourceVersion();
        if (Objects.equals(reported.put(identity(object), String.valueOf(version)), String.valueOf(version))) {
            return;
        }
        String kind = object.getKind() == null ? object.getClass().getSimpleName() : object.getKind();
        log.warn("{} {}/{} (resourceVersion {}) cannot be read whole and is not acted on as written: {}", kind,
                object.getMetadata().getNamespace(), object.getMetadata().getName(), version, failure.get().describe());
        Counter.builder(METRIC).description("Objects that could not be read whole, by kind").tag("kind", kind)
                .register(meters).increment();
        events.record(object, EventRecorder.WARNING, REASON,
                kind + " cannot be read: " + failure.get().describe());
    }

    private static String identity(HasMetadata object) {
        String uid = object.getMetadata().getUid();
        return uid != null ? uid : object.getMetadata().getNamespace() + "/" + object.getMetadata().getName();
    }
}
