package dev.muster.job.plugin;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.batch.v1alpha1.VolumeSpec;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.VolumeBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * {@code spec.volumes}, as in vcjob: every container of every pod mounts each volume at its
 * {@code mountPath}; a volume given as {@code volumeClaim} is a PersistentVolumeClaim
 * {@code <job>-volume-<i>} the job makes and owns, one given as {@code volumeClaimName} a claim that must
 * exist. Not a plugin one names in {@code spec.plugins}: it acts on every job that lists volumes. The
 * fields themselves are checked by the job's validator.
 */
public final class VolumesPlugin implements JobPlugin {
    /** How {@code status.controlledResources} names the owner of the claims it makes. */
    public static final String NAME = "volumes";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<PluginObject> onJobCreate(Job job, PluginArgs args) {
        List<PluginObject> claims = new ArrayList<>();
        List<VolumeSpec> volumes = volumes(job);
        for (int i = 0; i < volumes.size(); i++) {
            VolumeSpec volume = volumes.get(i);
            if (volume.getVolumeClaim() != null) {
                String name = JobDefaults.volumeClaimName(job.getMetadata().getName(), i);
                claims.add(new PluginObject(PersistentVolumeClaim.class, name, () -> new PersistentVolumeClaimBuilder()
                        .withNewMetadata().withName(name)
                        .withLabels(Map.of(MusterLabels.JOB_NAME, job.getMetadata().getName())).endMetadata()
                        .withSpec(volume.getVolumeClaim())
                        .build(), false));
            }
        }
        return claims;
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

    /**
     * The claims the job names in {@code volumeClaimName} that do not exist, each as
     * {@code PersistentVolumeClaim <name> (spec.volumes[<i>].volumeClaimName)}: its pods wait for them.
     */
    public static List<String> missingClaims(Job job, Predicate<String> exists) {
        List<String> missing = new ArrayList<>();
        List<VolumeSpec> volumes = volumes(job);
        for (int i = 0; i < volumes.size(); i++) {
            String name = volumes.get(i).getVolumeClaimName();
            if (name != null && !exists.test(name)) {
                missing.add("PersistentVolumeClaim " + name + " (spec.volumes[" + i + "].volumeClaimName)");
            }
        }
        return missing;
    }

    /** The claim {@code spec.volumes[index]} mounts. */
    static String claimName(Job job, int index) {
        VolumeSpec volume = volumes(job).get(index);
        return volume.getVolumeClaimName() != null ? volume.getVolumeClaimName()
                : JobDefaults.volumeClaimName(job.getMetadata().getName(), index);
    }

    private static List<VolumeSpec> volumes(Job job) {
        return job.getSpec() == null || job.getSpec().getVolumes() == null ? List.of() : job.getSpec().getVolumes();
    }
}
