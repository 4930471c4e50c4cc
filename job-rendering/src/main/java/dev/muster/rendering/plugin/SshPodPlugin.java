package dev.muster.rendering.plugin;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.batch.v1alpha1.validation.FieldError;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.KeyToPathBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;

import java.util.List;
import java.util.Set;

/**
 * {@code ssh}, as the pods see it: every container mounts the job's Secret {@code <job>-ssh} (one key pair
 * for the whole job and the {@link SshConfig} naming every pod, made by the Job controller) read-only at
 * {@code --ssh-key-file-path}. As Volcano does, the Secret's keys are projected into a directory
 * {@code .ssh} of the volume and that directory, not the volume's root, is mounted (subPath): the kubelet
 * makes a Secret volume's root world-writable, and OpenSSH's {@code StrictModes} refuses an
 * {@code authorized_keys} in such a directory, while the directory the kubelet makes for the items is 0755.
 * The files are 0600 under {@code /root/.ssh} and 0644 elsewhere, so that a non-root user can read the
 * root-owned files (ssh accepts a private key readable by others only when someone else owns it).
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
    /** Argument: the port the {@code config} sends ssh to (the pods' sshd's). */
    public static final String PORT = "ssh-port";
    /** The port unless {@code --ssh-port} says otherwise. */
    public static final int DEFAULT_PORT = 22;
    /** The Secret's keys, each a file in the mounted directory. */
    public static final List<String> FILES = List.of("id_rsa", "id_rsa.pub", "authorized_keys", "config");
    /** The directory of the volume the Secret's keys are projected into, and the mount's subPath. */
    public static final String SUB_PATH = ".ssh";
    /** Where the Secret is mounted by default. */
    public static final String DEFAULT_PATH = "/root/.ssh";
    /** Owner read and write only, at {@link #DEFAULT_PATH}: ssh refuses a private key others can read. */
    public static final int MODE = 0600;
    /** Elsewhere: readable by the (non-root) user of the image, the files being root's. */
    public static final int NON_ROOT_MODE = 0644;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<String> valuedArguments() {
        return Set.of(KEY_FILE_PATH, PRIVATE_KEY, PUBLIC_KEY, PORT);
    }

    @Override
    public void validate(Job job, PluginArgs args, List<FieldError> errors) {
        if (args.value(PRIVATE_KEY).isPresent() != args.value(PUBLIC_KEY).isPresent()) {
            errors.add(new FieldError("spec.plugins." + NAME, "arguments --" + PRIVATE_KEY + " and --" + PUBLIC_KEY
                    + " must be given together"));
        }
        // Said without the value: a key that is malformed is still a key, and the message goes to the Job's
        // status, an Event, the log and the dashboard.
        if (args.value(PRIVATE_KEY).filter(key -> !SshKeyFormats.isPrivateKey(key)).isPresent()) {
            errors.add(new FieldError("spec.plugins." + NAME, "argument --" + PRIVATE_KEY
                    + " is not one PEM private key (-----BEGIN ... PRIVATE KEY----- to -----END ... PRIVATE KEY-----); "
                    + "its value is not shown"));
        }
        if (args.value(PUBLIC_KEY).filter(key -> !SshKeyFormats.isPublicKey(key)).isPresent()) {
            errors.add(new FieldError("spec.plugins." + NAME, "argument --" + PUBLIC_KEY
                    + " is not one authorized_keys line (<type> <base64 key> [comment]); its value is not shown"));
        }
        if (!args.value(KEY_FILE_PATH, DEFAULT_PATH).startsWith("/")) {
            errors.add(new FieldError("spec.plugins." + NAME, "argument --" + KEY_FILE_PATH + " must be an absolute path"));
        }
        Ports.check(NAME, args, PORT, errors);
    }

    /** {@code --ssh-port}, or 22. */
    public static int port(PluginArgs args) {
        return Integer.parseInt(args.value(PORT, Integer.toString(DEFAULT_PORT)));
    }

    /** Name of the job's ssh Secret. */
    public static String secretName(Job job) {
        return job.getMetadata().getName() + "-ssh";
    }

    @Override
    public void onPodCreate(Job job, PluginArgs args, TaskSpec task, int index, Pod pod) {
        String path = args.value(KEY_FILE_PATH, DEFAULT_PATH);
        List<KeyToPath> items = FILES.stream().map(key -> new KeyToPathBuilder().withKey(key).withPath(SUB_PATH + "/" + key).build()).toList();
        PodEdits.volume(pod, new VolumeBuilder().withName(VOLUME).withNewSecret().withSecretName(secretName(job))
                .withItems(items).withDefaultMode(path.equals(DEFAULT_PATH) ? MODE : NON_ROOT_MODE).endSecret().build());
        PodEdits.mount(pod, new VolumeMountBuilder().withName(VOLUME).withMountPath(path).withSubPath(SUB_PATH)
                .withReadOnly(true).build());
    }
}
