package dev.muster.api.scheduling.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.muster.api.read.LenientCustomResource;
import dev.muster.api.read.LenientResourceReader;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;


/**
 * A gang: pods labelled {@code scheduling.muster.dev/pod-group: <name>} that are bound all-or-nothing
 * once {@code minMember} of them (and each task's {@code minTaskMember}) fit at once.
 */
@JsonClassDescription("A gang: pods labelled scheduling.muster.dev/pod-group: <name> that are bound all-or-nothing "
        + "once minMember of them (and each task's minTaskMember) fit at once.")
@Group(PodGroup.GROUP)
@Version(PodGroup.VERSION)
@Singular("podgroup")
@Plural("podgroups")
@ShortNames({"pg", "podgroup"})
@AdditionalPrinterColumn(name = "Phase", type = AdditionalPrinterColumn.Type.STRING, jsonPath = ".status.phase")
@AdditionalPrinterColumn(name = "Min", type = AdditionalPrinterColumn.Type.INTEGER, jsonPath = ".spec.minMember")
@AdditionalPrinterColumn(name = "Running", type = AdditionalPrinterColumn.Type.INTEGER, jsonPath = ".status.running")
@AdditionalPrinterColumn(name = "Succeeded", type = AdditionalPrinterColumn.Type.INTEGER, jsonPath = ".status.succeeded", priority = 1)
@AdditionalPrinterColumn(name = "Failed", type = AdditionalPrinterColumn.Type.INTEGER, jsonPath = ".status.failed", priority = 1)
@AdditionalPrinterColumn(name = "Age", type = AdditionalPrinterColumn.Type.DATE, jsonPath = ".metadata.creationTimestamp")
@JsonDeserialize(using = PodGroup.Reader.class)
public class PodGroup extends LenientCustomResource<PodGroupSpec, PodGroupStatus> implements Namespaced {
    public static final String GROUP = "scheduling.muster.dev";
    public static final String VERSION = "v1alpha1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "PodGroup";

    // The generator describes a property by its getter's (or field's) annotation; spec and status are
    // CustomResource's, so they are overridden here only to carry one.
    @Override
    @JsonPropertyDescription("Desired gang of the PodGroup.")
    public PodGroupSpec getSpec() {
        return super.getSpec();
    }

    @Override
    @JsonPropertyDescription("Observed state of the PodGroup; written only by the PodGroup controller.")
    public PodGroupStatus getStatus() {
        return super.getStatus();
    }

    @Override
    protected PodGroupSpec initSpec() {
        return new PodGroupSpec();
    }

    /** Reads a PodGroup leniently: see {@link LenientResourceReader}. */
    public static final class Reader extends LenientResourceReader<PodGroup, PodGroupSpec, PodGroupStatus> {
        public Reader() {
            super(PodGroup.class, PodGroup::new, PodGroupSpec.class, PodGroupStatus.class);
        }
    }
}
