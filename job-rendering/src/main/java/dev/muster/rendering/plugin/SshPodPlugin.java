package dev.muster.rendering.plugin;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.batch.v1alpha1.validation.FieldError;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.VolumeBuilder;

import java.util.List;
import java.util.Set;

/**
 * {@code ssh}, as the pods see it: every pod mounts the job's Secret {@code <job>-ssh} (one key pair for the
 * whole job and an ssh {@code config} naming every pod, made by the Job controller) read-only, mode 0600, at
 * {@code --ssh-key-file-path}.
 */
public final class SshPodPlugin implements PodPlugin {
    /** Plugin name in {@code spec.plugins}. */
    public static final String NAME = "ssh";
    /** The pod volume of the Secret. */
    public static final String VOLUME = "muster-ssh";
    /** Argument: where the Secret is mounted. */
    public static final String KEY_FILE_PATH = "ssh-key-file-path";
    /** Argument: the private key to use instead of a generated one. */
    public static final String PRIVATE_KEY = "ssh-private-key";
    /** Argument: its public key. */
    public static final String PUBLIC_KEY = "ssh-public-key";
    /** Where the Secret is mounted by default. */
    public static final String DEFAULT_PATH = "/root/.ssh";
    /** Owner read and write only: ssh refuses a private key others can read. */
    public static final int MODE = 0600;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<String> valuedArguments() {
        return Set.of(KEY_FILE_PATH, PRIVATE_KEY, PUBLIC_KEY);
    }

    @Override
    public void validate(Job job, PluginArgs args, List<FieldError> errors) {
        if (args.value(PRIVATE_KEY).isPresent() != args.value(PUBLIC_KEY).isPresent()) {
            errors.add(new FieldError("spec.plugins." + NAME, "arguments --" + PRIVATE_KEY + " and --" + PUBLIC_KEY
                    + " must be given together"));
        }
        if (!args.value(KEY_FILE_PATH, DEFAULT_PATH).startsWith("/")) {
            errors.add(new FieldError("spec.plugins." + NAME, "argument --" + KEY_FILE_PATH + " must be an absolute path"));
        }
    }

    /** Name of the job's ssh Secret. */
    public static String secretName(Job job) {
        return job.getMetadata().getName() + "-ssh";
    }

    @Override
    public void onPodCreate(Job job, PluginArgs args, TaskSpec task, int index, Pod pod) {
        PodEdits.volume(pod, new VolumeBuilder().withName(VOLUME)
                .withNewSecret().withSecretName(secretName(job)).withDefaultMode(MODE).endSecret().build());
        PodEdits.mount(pod, VOLUME, args.value(KEY_FILE_PATH, DEFAULT_PATH));
    }
}
