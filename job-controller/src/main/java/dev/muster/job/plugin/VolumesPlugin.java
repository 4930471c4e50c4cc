package dev.muster.job.plugin;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.VolumeSpec;
import dev.muster.rendering.plugin.PluginArgs;
import dev.muster.rendering.plugin.VolumesPodPlugin;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * {@code spec.volumes}' objects, as in vcjob: a volume given as {@code volumeClaim} is a PersistentVolumeClaim
 * {@code <job>-volume-<i>} the job makes and owns, one given as {@code volumeClaimName} a claim that must
 * exist. How the pods mount them is {@link VolumesPodPlugin}'s. The fields themselves are checked by the
 * job's validator.
 */
public final class VolumesPlugin implements JobPlugin {
    @Override
    public String name() {
        return VolumesPodPlugin.NAME;
    }

    @Override
    public List<PluginObject> onJobCreate(Job job, PluginArgs args) {
        List<PluginObject> claims = new ArrayList<>();
        List<VolumeSpec> volumes = VolumesPodPlugin.volumes(job);
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

    /**
     * The claims the job names in {@code volumeClaimName} that do not exist, each as
     * {@code PersistentVolumeClaim <name> (spec.volumes[<i>].volumeClaimName)}: its pods wait for them.
     */
    public static List<String> missingClaims(Job job, Predicate<String> exists) {
        List<String> missing = new ArrayList<>();
        List<VolumeSpec> volumes = VolumesPodPlugin.volumes(job);
        for (int i = 0; i < volumes.size(); i++) {
            String name = volumes.get(i).getVolumeClaimName();
            if (name != null && !exists.test(name)) {
                missing.add("PersistentVolumeClaim " + name + " (spec.volumes[" + i + "].volumeClaimName)");
            }
        }
        return missing;
    }
}
