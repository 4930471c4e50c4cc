package dev.muster.api.batch.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.muster.api.read.LenientCustomResource;
import dev.muster.api.read.LenientResourceReader;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;


/**
 * A batch job of one or more tasks, each a set of identical pods, gang-scheduled through a PodGroup.
 * Field names follow Volcano's vcjob so that a vcjob manifest ports by changing its {@code apiVersion}.
 */
@JsonClassDescription("A batch job of one or more tasks, each a set of identical pods, gang-scheduled through a "
        + "PodGroup.")
@Group(Job.GROUP)
@Version(Job.VERSION)
@Singular("job")
@Plural("jobs")
@ShortNames({"mjob", "mj"})
@AdditionalPrinterColumn(name = "Phase", type = AdditionalPrinterColumn.Type.STRING, jsonPath = ".status.state.phase")
@AdditionalPrinterColumn(name = "Min", type = AdditionalPrinterColumn.Type.INTEGER, jsonPath = ".status.minAvailable")
@AdditionalPrinterColumn(name = "Running", type = AdditionalPrinterColumn.Type.INTEGER, jsonPath = ".status.running")
@AdditionalPrinterColumn(name = "Succeeded", type = AdditionalPrinterColumn.Type.INTEGER, jsonPath = ".status.succeeded", priority = 1)
@AdditionalPrinterColumn(name = "Failed", type = AdditionalPrinterColumn.Type.INTEGER, jsonPath = ".status.failed", priority = 1)
@AdditionalPrinterColumn(name = "Reason", type = AdditionalPrinterColumn.Type.STRING, jsonPath = ".status.state.reason", priority = 1)
@AdditionalPrinterColumn(name = "Age", type = AdditionalPrinterColumn.Type.DATE, jsonPath = ".metadata.creationTimestamp")
@ValidationRule(value = CelRules.POD_NAME_LENGTH, message = CelRules.POD_NAME_LENGTH_MESSAGE)
@JsonDeserialize(using = Job.Reader.class)
public class Job extends LenientCustomResource<JobSpec, JobStatus> implements Namespaced {
    public static final String GROUP = "batch.muster.dev";
    public static final String VERSION = "v1alpha1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "Job";

    // The generator describes a property by its getter's (or field's) annotation; spec and status are
    // CustomResource's, so they are overridden here only to carry one.
    @Override
    @JsonPropertyDescription("Desired state of the job.")
    public JobSpec getSpec() {
        return super.getSpec();
    }

    @Override
    @JsonPropertyDescription("Observed state of the job; written only by the job controller.")
    public JobStatus getStatus() {
        return super.getStatus();
    }

    @Override
    protected JobSpec initSpec() {
        return new JobSpec();
    }

    /** Reads a Job leniently: see {@link LenientResourceReader}. */
    public static final class Reader extends LenientResourceReader<Job, JobSpec, JobStatus> {
        public Reader() {
            super(Job.class, Job::new, JobSpec.class, JobStatus.class);
        }
    }
}
