package dev.muster.job.plugin;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.batch.v1alpha1.validation.FieldError;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.VolumeBuilder;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code ssh}: password-less ssh between the job's pods, as MPI launchers need. A Secret {@code <job>-ssh}
 * holds one key pair for the whole job ({@code id_rsa}, {@code id_rsa.pub}, {@code authorized_keys}) and an
 * ssh {@code config} naming every pod; every pod mounts it read-only, mode 0600, at {@code --ssh-key-file-path}.
 * The Secret is made once: a restart of the job keeps the key.
 */
public final class SshPlugin implements JobPlugin {
    /** Plugin name in {@code spec.plugins}. */
    public static final String NAME = "ssh";
    /** The pod volume of the Secret. */
    public static final String VOLUME = "muster-ssh";
    static final String KEY_FILE_PATH = "ssh-key-file-path";
    static final String PRIVATE_KEY = "ssh-private-key";
    static final String PUBLIC_KEY = "ssh-public-key";
    static final String DEFAULT_PATH = "/root/.ssh";
    /** Owner read and write only: ssh refuses a private key others can read. */
    static final int MODE = 0600;

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
        // Said without the value: a key that is malformed is still a key, and the message goes to the Job's
        // status, an Event, the log and the dashboard.
        if (args.value(PRIVATE_KEY).filter(key -> !SshKeyPair.isPrivateKey(key)).isPresent()) {
            errors.add(new FieldError("spec.plugins." + NAME, "argument --" + PRIVATE_KEY
                    + " is not one PEM private key (-----BEGIN ... PRIVATE KEY----- to -----END ... PRIVATE KEY-----); "
                    + "its value is not shown"));
        }
        if (args.value(PUBLIC_KEY).filter(key -> !SshKeyPair.isPublicKey(key)).isPresent()) {
            errors.add(new FieldError("spec.plugins." + NAME, "argument --" + PUBLIC_KEY
                    + " is not one authorized_keys line (<type> <base64 key> [comment]); its value is not shown"));
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
    public List<PluginObject> onJobCreate(Job job, PluginArgs args) {
        return List.of(new PluginObject(Secret.class, secretName(job), () -> {
            SshKeyPair keys = args.value(PRIVATE_KEY).isPresent()
                    ? new SshKeyPair(args.value(PRIVATE_KEY).get(), args.value(PUBLIC_KEY).get())
                    : SshKeyPair.generate();
            return secret(job, keys);
        }, false));
    }

    /** The Secret holding {@code keys} and the ssh config of the job's pods. */
    static Secret secret(Job job, SshKeyPair keys) {
        Map<String, String> data = new LinkedHashMap<>();
        data.put("id_rsa", keys.privateKey());
        data.put("id_rsa.pub", keys.publicKey());
        data.put("authorized_keys", keys.publicKey());
        data.put("config", config(job));
        return new SecretBuilder()
                .withNewMetadata().withName(secretName(job))
                .withLabels(Map.of(MusterLabels.JOB_NAME, job.getMetadata().getName())).endMetadata()
                .withType("Opaque")
                .withData(base64(data))
                .build();
    }

    private static Map<String, String> base64(Map<String, String> data) {
        Map<String, String> encoded = new LinkedHashMap<>();
        data.forEach((key, value) -> encoded.put(key,
                Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8))));
        return encoded;
    }

    /** One {@code Host} entry per pod, reached by its host name, without asking to trust its host key. */
    static String config(Job job) {
        StringBuilder config = new StringBuilder();
        for (TaskSpec task : job.getSpec().getTasks()) {
            for (int i = 0; i < JobDefaults.replicas(task); i++) {
                config.append("Host ").append(JobDefaults.podName(job.getMetadata().getName(), task.getName(), i)).append('\n')
                        .append("  HostName ").append(JobHosts.host(job, task.getName(), i)).append('\n')
                        .append("  StrictHostKeyChecking no\n")
                        .append("  UserKnownHostsFile /dev/null\n");
            }
        }
        return config.toString();
    }

    @Override
    public void onPodCreate(Job job, PluginArgs args, TaskSpec task, int index, Pod pod) {
        PodEdits.volume(pod, new VolumeBuilder().withName(VOLUME)
                .withNewSecret().withSecretName(secretName(job)).withDefaultMode(MODE).endSecret().build());
        PodEdits.mount(pod, VOLUME, args.value(KEY_FILE_PATH, DEFAULT_PATH));
    }
}
