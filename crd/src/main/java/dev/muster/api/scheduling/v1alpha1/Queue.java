package dev.muster.api.scheduling.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.muster.api.read.LenientCustomResource;
import dev.muster.api.read.LenientResourceReader;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;


/**
 * A cluster-wide queue of gangs: a share of the cluster by {@code weight}, a {@code guarantee} it always gets
 * when it asks, a {@code limit} on its subtree, and how its gangs may preempt. Queues form a tree through
 * {@code parent}; only leaf queues take jobs. Rules that span queues (no cycles, the parent exists, children's
 * guarantees fit in the parent's, a child's limit is not above its parent's) are not expressible in a CRD
 * schema: {@link QueueTreeValidator} checks them and the scheduler reports them in the {@code Valid}
 * condition.
 */
@JsonClassDescription("A cluster-wide queue of gangs: a share of the cluster by weight, a guarantee it always gets "
        + "when it asks, a limit on its subtree, and how its gangs may preempt.")
@Group(Queue.GROUP)
@Version(Queue.VERSION)
@Singular("queue")
@Plural("queues")
@ShortNames({"q"})
@AdditionalPrinterColumn(name = "State", type = AdditionalPrinterColumn.Type.STRING, jsonPath = ".spec.state")
@AdditionalPrinterColumn(name = "Weight", type = AdditionalPrinterColumn.Type.INTEGER, jsonPath = ".spec.weight")
@AdditionalPrinterColumn(name = "Guarantee", type = AdditionalPrinterColumn.Type.STRING, jsonPath = ".spec.guarantee")
@AdditionalPrinterColumn(name = "Allocated", type = AdditionalPrinterColumn.Type.STRING, jsonPath = ".status.allocated")
@AdditionalPrinterColumn(name = "Fair Share", type = AdditionalPrinterColumn.Type.STRING, jsonPath = ".status.fairShare")
@AdditionalPrinterColumn(name = "Pending", type = AdditionalPrinterColumn.Type.INTEGER, jsonPath = ".status.pending")
@AdditionalPrinterColumn(name = "Running", type = AdditionalPrinterColumn.Type.INTEGER, jsonPath = ".status.running")
@AdditionalPrinterColumn(name = "Age", type = AdditionalPrinterColumn.Type.DATE, jsonPath = ".metadata.creationTimestamp")
@ValidationRule(value = QueueCelRules.NOT_OWN_PARENT, message = QueueCelRules.NOT_OWN_PARENT_MESSAGE)
@JsonDeserialize(using = Queue.Reader.class)
public class Queue extends LenientCustomResource<QueueSpec, QueueStatus> {
    public static final String GROUP = PodGroup.GROUP;
    public static final String VERSION = PodGroup.VERSION;
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "Queue";
    /** The queue of gangs that name none; the manager creates it at start when it is absent. */
    public static final String DEFAULT = "default";

    // The generator describes a property by its getter's (or field's) annotation; spec and status are
    // CustomResource's, so they are overridden here only to carry one.
    @Override
    @JsonPropertyDescription("Desired share of the queue.")
    public QueueSpec getSpec() {
        return super.getSpec();
    }

    @Override
    @JsonPropertyDescription("Observed state of the queue; written only by the scheduler.")
    public QueueStatus getStatus() {
        return super.getStatus();
    }

    @Override
    protected QueueSpec initSpec() {
        return new QueueSpec();
    }

    /** Reads a Queue leniently: see {@link LenientResourceReader}. */
    public static final class Reader extends LenientResourceReader<Queue, QueueSpec, QueueStatus> {
        public Reader() {
            super(Queue.class, Queue::new, QueueSpec.class, QueueStatus.class);
        }
    }
}
