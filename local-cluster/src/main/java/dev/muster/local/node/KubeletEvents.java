package dev.muster.local.node;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.HttpURLConnection;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Events the simulated kubelet records on pods, as a kubelet records them with client-go's recorder: source
 * {@code kubelet} on the node's name (also their reporting component and instance), the involved object the
 * pod with the container's {@code fieldPath}, and a repeat of an Event already recorded (same container, reason
 * and message) raising that Event's count with a PATCH rather than creating another, as client-go's event
 * correlator does. Only crash loops are recorded: a kubelet's Events of every container start (Pulled, Created,
 * Started) would cost requests on every pod, and the local cluster's request counts would then show them.
 */
final class KubeletEvents {
    private static final Logger log = LoggerFactory.getLogger(KubeletEvents.class);
    static final String COMPONENT = "kubelet";
    static final String BACK_OFF = "BackOff";

    private final KubernetesClient client;
    /** The Events recorded on each pod (by uid), by the container field path, reason and message that they say. */
    private final Map<String, Map<String, Recorded>> recorded = new ConcurrentHashMap<>();

    KubeletEvents(KubernetesClient client) {
        this.client = client;
    }

    /**
     * Records the kubelet's Warning {@code BackOff} on the pod for a container whose restart waits for a back-off,
     * in the kubelet's words.
     *
     * @param fieldPath {@code spec.containers{NAME}} or {@code spec.initContainers{NAME}}
     */
    void backOff(Pod pod, String container, String fieldPath) {
        record(pod, fieldPath, "Warning", BACK_OFF, "Back-off restarting failed container " + container + " in pod "
                + PodStatuses.podName(pod));
    }

    /** Forgets the Events of a pod that is gone, or that has ended and records no more. */
    void forget(String uid) {
        recorded.remove(uid);
    }

    private void record(Pod pod, String fieldPath, String type, String reason, String message) {
        Instant now = Instant.now();
        String key = fieldPath + "\n" + reason + "\n" + message;
        Map<String, Recorded> ofPod = recorded.computeIfAbsent(pod.getMetadata().getUid(), uid -> new ConcurrentHashMap<>());
        Recorded before = ofPod.get(key);
        Recorded next = before == null ? new Recorded(eventName(pod, now), 1, now) : before.repeated();
        try {
            if (before == null) {
                create(pod, fieldPath, type, reason, message, next, now);
            } else {
                patchOrCreate(pod, fieldPath, type, reason, message, next, now);
            }
            ofPod.put(key, next);
        } catch (KubernetesClientException e) {
            // Best effort, as a kubelet's Events are: a lost one never holds up the pod.
            log.debug("could not record event {} on pod {}/{}: {}", reason, pod.getMetadata().getNamespace(),
                    pod.getMetadata().getName(), e.getMessage());
        }
    }

    /** Raises the count; an Event that expired or was deleted meanwhile is written whole again, as client-go does. */
    private void patchOrCreate(Pod pod, String fieldPath, String type, String reason, String message, Recorded event,
                               Instant now) {
        Map<String, Object> change = new LinkedHashMap<>();
        change.put("count", event.count());
        change.put("lastTimestamp", timestamp(now));
        try {
            client.v1().events().inNamespace(pod.getMetadata().getNamespace()).withName(event.name())
                    .patch(PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(change));
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
                throw e;
            }
            create(pod, fieldPath, type, reason, message, event, now);
        }
    }

    private void create(Pod pod, String fieldPath, String type, String reason, String message, Recorded event,
                        Instant now) {
        String node = pod.getSpec().getNodeName();
        Event created = new EventBuilder().withNewMetadata().withNamespace(pod.getMetadata().getNamespace())
                .withName(event.name()).endMetadata()
                .withNewInvolvedObject().withApiVersion("v1").withKind("Pod")
                .withNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
                .withUid(pod.getMetadata().getUid()).withResourceVersion(pod.getMetadata().getResourceVersion())
                .withFieldPath(fieldPath).endInvolvedObject()
                .withType(type).withReason(reason).withMessage(message).withCount(event.count())
                .withFirstTimestamp(timestamp(event.firstSeen())).withLastTimestamp(timestamp(now))
                .withNewSource().withComponent(COMPONENT).withHost(node).endSource()
                .withReportingComponent(COMPONENT).withReportingInstance(node).build();
        client.v1().events().inNamespace(pod.getMetadata().getNamespace()).resource(created).create();
    }

    /** Named as client-go names a new Event: the object's name and the time in hexadecimal nanoseconds. */
    private static String eventName(Pod pod, Instant now) {
        long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        return pod.getMetadata().getName() + "." + Long.toHexString(nanos);
    }

    private static String timestamp(Instant instant) {
        return instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** An Event as written: its name, its count so far and when it was first recorded. */
    private record Recorded(String name, int count, Instant firstSeen) {
        Recorded repeated() {
            return new Recorded(name, count + 1, firstSeen);
        }
    }
}
