package dev.muster.rendering.plugin;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.VolumeBuilder;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code svc}, as the pods see it: the job's pods find each other by name. Each pod's hostname is its name
 * and its subdomain the job's (the job's headless Service), unless its template sets them; {@code MUSTER_<TASK>_HOSTS}/{@code _NUM} and
 * Volcano's {@code VC_} twins in every container (unless {@code --inject-hosts-env=false}); the ConfigMap {@code <job>-svc} of each task's hosts
 * mounted at {@code /etc/muster} and {@code /etc/volcano}. The Service, ConfigMap and NetworkPolicy
 * themselves are made by the Job controller.
 */
public final class SvcPodPlugin implements PodPlugin {
    /** Plugin name in {@code spec.plugins}. */
    public static final String NAME = "svc";
    /** The pod volume holding the host lists (and, with mpi, the hostfile). */
    public static final String VOLUME = "muster-svc";
    /** Where the host lists are mounted. */
    public static final String MOUNT_PATH = "/etc/muster";
    /** Where Volcano's images look for them. */
    public static final String VOLCANO_MOUNT_PATH = "/etc/volcano";
    /** Switch: the Service publishes the addresses of pods that are not ready. */
    public static final String PUBLISH_NOT_READY = "publish-not-ready-addresses";
    /** Switch: no NetworkPolicy. */
    public static final String DISABLE_NETWORK_POLICY = "disable-network-policy";
    /**
     * Switch, on unless {@code =false}: the host lists and counts as variables. Off, a job of very many pods
     * keeps its containers' environment small (Volcano's reason); the lists are still in the files.
     */
    public static final String INJECT_HOSTS_ENV = "inject-hosts-env";
    /** Prefix of Muster's host variables. */
    public static final String MUSTER_PREFIX = "MUSTER_";
    /** Prefix of Volcano's, which ported images read. */
    public static final String VOLCANO_PREFIX = "VC_";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<String> switches() {
        return Set.of(PUBLISH_NOT_READY, DISABLE_NETWORK_POLICY, INJECT_HOSTS_ENV);
    }

    /** Name of the job's ConfigMap of host lists. */
    public static String configMapName(Job job) {
        return job.getMetadata().getName() + "-svc";
    }

    @Override
    public void onPodCreate(Job job, PluginArgs args, TaskSpec task, int index, Pod pod) {
        // As Volcano's svc plugin: a hostname or subdomain the template sets is kept (JobHosts names it so).
        if (pod.getSpec().getHostname() == null || pod.getSpec().getHostname().isEmpty()) {
            pod.getSpec().setHostname(JobDefaults.podName(job.getMetadata().getName(), task.getName(), index));
        }
        if (pod.getSpec().getSubdomain() == null || pod.getSpec().getSubdomain().isEmpty()) {
            pod.getSpec().setSubdomain(job.getMetadata().getName());
        }
        if (args.isSet(INJECT_HOSTS_ENV, true)) {
            hostsEnv(job, pod);
        }
        PodEdits.volume(pod, new VolumeBuilder().withName(VOLUME).withNewProjected()
                .addNewSource().withNewConfigMap().withName(configMapName(job)).endConfigMap().endSource()
                .endProjected().build());
        PodEdits.mount(pod, VOLUME, MOUNT_PATH);
        PodEdits.mount(pod, VOLUME, VOLCANO_MOUNT_PATH);
    }

    private static void hostsEnv(Job job, Pod pod) {
        hostVariables(job, MUSTER_PREFIX).forEach((name, value) -> PodEdits.env(pod, name, value));
        hostVariables(job, VOLCANO_PREFIX).forEach((name, value) -> PodEdits.env(pod, name, value));
    }

    /**
     * For every task, {@code <prefix><TASK>_HOSTS} (its hosts, comma-separated) and {@code <prefix><TASK>_NUM}
     * (how many: its replicas, or 1 for a task whose template sets the hostname, as Volcano counts them).
     */
    public static Map<String, String> hostVariables(Job job, String prefix) {
        Map<String, String> variables = new LinkedHashMap<>();
        for (TaskSpec task : job.getSpec().getTasks()) {
            List<String> hosts = JobHosts.hosts(job, task);
            variables.put(prefix + JobHosts.envName(task.getName()) + "_HOSTS", String.join(",", hosts));
            variables.put(prefix + JobHosts.envName(task.getName()) + "_NUM", Integer.toString(hosts.size()));
        }
        return variables;
    }
}
