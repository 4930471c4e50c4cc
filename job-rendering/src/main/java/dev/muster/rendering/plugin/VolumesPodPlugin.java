package dev.muster.rendering.plugin;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.batch.v1alpha1.VolumeSpec;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.VolumeBuilder;

import java.util.List;

/**
 * {@code spec.volumes}, as in vcjob, as the pods see it: every container of every pod mounts each volume
 * read-write at its {@code mountPath}, from claim {@code volumeClaimName}, or from claim
 * {@code <job>-volume-<i>} which the Job controller makes from {@code volumeClaim}. Not a plugin one names in
 * {@code spec.plugins}: it acts on every job that lists volumes.
 */
public final class VolumesPodPlugin implements PodPlugin {
    /** How {@code status.controlledResources} names the owner of the claims it makes. */
    public static final String NAME = "volumes";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void onPodCreate(Job job, PluginArgs args, TaskSpec task, int index, Pod pod) {
        List<VolumeSpec> volumes = volumes(job);
        for (int i = 0; i < volumes.size(); i++) {
            String volume = "muster-volume-" + i;
            PodEdits.volume(pod, new VolumeBuilder().withName(volume)
                    .withNewPersistentVolumeClaim().withClaimName(claimName(job, i)).endPersistentVolumeClaim().build());
            PodEdits.mount(pod, volume, volumes.get(i).getMountPath(), false);
        }
    }

    /** The claim {@code spec.volumes[index]} mounts. */
    public static String claimName(Job job, int index) {
        VolumeSpec volume = volumes(job).get(index);
        return volume.getVolumeClaimName() != null ? volume.getVolumeClaimName()
                : JobDefaults.volumeClaimName(job.getMetadata().getName(), index);
    }

    /** The job's {@code spec.volumes}, empty when it lists none. */
    public static List<VolumeSpec> volumes(Job job) {
        return job.getSpec() == null || job.getSpec().getVolumes() == null ? List.of() : job.getSpec().getVolumes();
    }
}
