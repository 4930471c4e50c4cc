package dev.muster.scheduler;

import dev.muster.scheduler.core.dra.DeviceTaintRule;
import dev.muster.support.event.EventRecorder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says on the DRA objects the scheduler does not honour as written that it does not, as Warning Events, so that an
 * administrator who looks at the object ({@code kubectl describe}) learns it, not only one who reads the docs: a
 * ResourceSlice with {@code spec.perDeviceNodeSelection: true}, whose devices Muster allocates on no node, and a
 * DeviceTaintRule with a CEL selector that does not compile in Muster's CEL environment, which then taints no
 * device. An object is told once while it keeps the field, and again if it drops it and sets it back; repeats of one
 * Event raise its count ({@link EventRecorder}).
 */
final class DraWarnings {
    private static final Logger log = LoggerFactory.getLogger(DraWarnings.class);
    /** The reason of the Event on a ResourceSlice whose devices Muster does not allocate. */
    static final String NOT_ALLOCATED = "NotAllocatedByMuster";
    /** The reason of the Event on a DeviceTaintRule whose selector does not compile. */
    static final String SELECTS_NOTHING = "SelectsNoDevice";
    static final String SLICE_MESSAGE = "spec.perDeviceNodeSelection is true: each device names its own node "
            + "(devices[].nodeName, nodeSelector or allNodes), which scheduler muster does not read, so it allocates "
            + "none of this slice's devices";
    static final String RULE_MESSAGE = "%s, so this rule taints no device";

    private final EventRecorder recorder;
    /** The slices told, by uid, that still set the field. Informer handlers of one informer run one at a time. */
    private final Set<String> toldSlices = new HashSet<>();
    /** The DeviceTaintRules told, by uid, whose selector still does not compile. */
    private final Set<String> toldRules = new HashSet<>();

    DraWarnings(EventRecorder recorder) {
        this.recorder = recorder;
    }

    /** A ResourceSlice was added or changed. */
    synchronized void slice(GenericKubernetesResource slice) {
        String uid = slice.getMetadata().getUid();
        if (!DraObjects.perDeviceNodeSelection(slice)) {
            toldSlices.remove(uid);
        } else if (toldSlices.add(uid)) {
            log.info("ResourceSlice {}: perDeviceNodeSelection, its devices are not allocated", slice.getMetadata().getName());
            recorder.record(about(slice, DraObjects.API_VERSION, "ResourceSlice"), EventRecorder.WARNING, NOT_ALLOCATED,
                    SLICE_MESSAGE);
        }
    }

    /** A ResourceSlice was deleted. */
    synchronized void sliceGone(GenericKubernetesResource slice) {
        toldSlices.remove(slice.getMetadata().getUid());
    }

    /**
     * A DeviceTaintRule was added or changed (or listed when the scheduler started).
     *
     * @param parsed the rule as {@link DraObjects#taintRule} reads it
     */
    synchronized void taintRule(GenericKubernetesResource rule, DeviceTaintRule parsed, String apiVersion) {
        String uid = rule.getMetadata().getUid();
        String why = parsed.selectsNothing();
        if (why == null) {
            toldRules.remove(uid);
        } else if (toldRules.add(uid)) {
            log.info("DeviceTaintRule {}: taints no device: {}", rule.getMetadata().getName(), why);
            recorder.record(about(rule, apiVersion, "DeviceTaintRule"), EventRecorder.WARNING, SELECTS_NOTHING,
                    RULE_MESSAGE.formatted(why));
        }
    }

    /** A DeviceTaintRule was deleted. */
    synchronized void taintRuleGone(GenericKubernetesResource rule) {
        toldRules.remove(rule.getMetadata().getUid());
    }

    /**
     * The object as the Event names it: a list's items may lack apiVersion and kind, which the Event's
     * involvedObject needs.
     */
    private static GenericKubernetesResource about(GenericKubernetesResource object, String apiVersion, String kind) {
        return new GenericKubernetesResourceBuilder().withApiVersion(apiVersion).withKind(kind)
                .withMetadata(object.getMetadata()).build();
    }
}
