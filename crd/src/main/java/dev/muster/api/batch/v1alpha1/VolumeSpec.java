package dev.muster.api.batch.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimSpec;

/** A volume mounted into every pod of a job: an existing claim, or one made from {@code volumeClaim}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class VolumeSpec {
    private String mountPath;
    private String volumeClaimName;
    @PreserveUnknownFields
    @SchemaFrom(type = Object.class)
    private PersistentVolumeClaimSpec volumeClaim;

    /** Where the volume is mounted in every container. */
    public String getMountPath() { return mountPath; }
    public void setMountPath(String mountPath) { this.mountPath = mountPath; }

    /** Name of the PersistentVolumeClaim to mount. */
    public String getVolumeClaimName() { return volumeClaimName; }
    public void setVolumeClaimName(String volumeClaimName) { this.volumeClaimName = volumeClaimName; }

    /** Spec of a claim the job creates for itself. */
    public PersistentVolumeClaimSpec getVolumeClaim() { return volumeClaim; }
    public void setVolumeClaim(PersistentVolumeClaimSpec volumeClaim) { this.volumeClaim = volumeClaim; }
}
