package dev.muster.job.plugin;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.rendering.plugin.PluginArgs;
import dev.muster.rendering.plugin.SshConfig;
import dev.muster.rendering.plugin.SshPodPlugin;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code ssh}'s object: password-less ssh between the job's pods, as MPI launchers need. A Secret
 * {@code <job>-ssh} holds one key pair for the whole job ({@code id_rsa}, {@code id_rsa.pub},
 * {@code authorized_keys}) and the ssh {@link SshConfig} naming every pod; how the pods mount it is
 * {@link SshPodPlugin}'s. The Secret is made once: a restart of the job keeps the key.
 */
public final class SshPlugin implements JobPlugin {
    @Override
    public String name() {
        return SshPodPlugin.NAME;
    }

    @Override
    public List<PluginObject> onJobCreate(Job job, PluginArgs args) {
        return List.of(new PluginObject(Secret.class, SshPodPlugin.secretName(job), () -> {
            SshKeyPair keys = args.value(SshPodPlugin.PRIVATE_KEY).isPresent()
                    ? new SshKeyPair(args.value(SshPodPlugin.PRIVATE_KEY).get(), args.value(SshPodPlugin.PUBLIC_KEY).get())
                    : SshKeyPair.generate();
            return secret(job, keys, SshConfig.text(job, args));
        }, false));
    }

    /** The Secret holding {@code keys} and {@code config}, the ssh config of the job's pods. */
    static Secret secret(Job job, SshKeyPair keys, String config) {
        Map<String, String> data = new LinkedHashMap<>();
        data.put("id_rsa", keys.privateKey());
        data.put("id_rsa.pub", keys.publicKey());
        data.put("authorized_keys", keys.publicKey());
        data.put("config", config);
        return new SecretBuilder()
                .withNewMetadata().withName(SshPodPlugin.secretName(job))
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
}
