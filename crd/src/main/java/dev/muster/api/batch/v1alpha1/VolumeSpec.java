package dev.muster.api.batch.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimSpec;

/** A volume mounted into every pod of a job: an existing claim, or one made from {@code volumeClaim}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = CelRules.CLAIM_XOR_NAME, message = CelRules.CLAIM_XOR_NAME_MESSAGE)
public class VolumeSpec {
    /** Longest mountPath: bounds the CRD's cost estimate of comparing every volume's path with every other's. */
    public static final int MAX_MOUNT_PATH = 4096;
    @Required
    @Size(max = MAX_MOUNT_PATH)
    @ValidationRule(value = CelRules.ABSOLUTE_MOUNT_PATH, message = CelRules.ABSOLUTE_MOUNT_PATH_MESSAGE)
    private String mountPath;
    private String volumeClaimName;
    @PreserveUnknownFields
    @SchemaFrom(type = Object.class)
    private PersistentVolumeClaimSpec volumeClaim;

    /** Where the volume is mounted in every container. */
    @JsonPropertyDescription("Where the volume is mounted in every container; an absolute path, one per volume.")
    public String getMountPath() { return mountPath; }
    public void setMountPath(String mountPath) { this.mountPath = mountPath; }

    /** Name of the PersistentVolumeClaim to mount. */
    @JsonPropertyDescription("Name of an existing PersistentVolumeClaim to mount; exactly one of "
            + "volumeClaimName and volumeClaim.")
    public String getVolumeClaimName() { return volumeClaimName; }
    public void setVolumeClaimName(String volumeClaimName) { this.volumeClaimName = volumeClaimName; }

    /** Spec of a claim the job creates for itself. */
    @JsonPropertyDescription("Spec of a claim the job creates for itself; exactly one of volumeClaimName "
            + "and volumeClaim.")
    public PersistentVolumeClaimSpec getVolumeClaim() { return volumeClaim; }
    public void setVolumeClaim(PersistentVolumeClaimSpec volumeClaim) { this.volumeClaim = volumeClaim; }
}
