package dev.muster.rendering.plugin;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.TaskSpec;

/**
 * The ssh client {@code config} the ssh plugin hands every pod, as Volcano's ssh plugin writes it: global
 * {@code StrictHostKeyChecking no} and {@code UserKnownHostsFile /dev/null} first (the pods' host keys are
 * made when their sshd starts, so nobody could have trusted them before), then one {@code Host} entry per
 * name {@link JobHosts} hands out, answering to the short name ({@code <job>-<task>-<i>}) and the
 * {@code <pod>.<job>} form alike, with {@code --ssh-port}. A pure function of the job and the plugin's
 * arguments; the Job controller stores it in the Secret {@code <job>-ssh}.
 */
public final class SshConfig {
    private SshConfig() {
    }

    /** The {@code config} file for the job's pods. */
    public static String text(Job job, PluginArgs args) {
        int port = SshPodPlugin.port(args);
        StringBuilder config = new StringBuilder("StrictHostKeyChecking no\nUserKnownHostsFile /dev/null\n");
        for (TaskSpec task : job.getSpec().getTasks()) {
            for (String host : JobHosts.hosts(job, task)) {
                // A hostname is one DNS label, so the short name is everything before the first dot.
                String shortName = host.substring(0, host.indexOf('.'));
                config.append("Host ").append(shortName).append(' ').append(host).append('\n')
                        .append("  HostName ").append(host).append('\n')
                        .append("  Port ").append(port).append('\n');
            }
        }
        return config.toString();
    }
}
