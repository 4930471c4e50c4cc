package dev.muster.job.plugin;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code svc}: the job's pods find each other by name. A headless Service named after the job; each pod's
 * hostname is its name and its subdomain the job's; a ConfigMap {@code <job>-svc} with each task's hosts,
 * mounted at {@code /etc/muster} and {@code /etc/volcano}; {@code MUSTER_<TASK>_HOSTS}/{@code _NUM} and
 * Volcano's {@code VC_} twins in every container; and a NetworkPolicy that admits only the job's pods.
 */
public final class SvcPlugin implements JobPlugin {
    /** Plugin name in {@code spec.plugins}. */
    public static final String NAME = "svc";
    /** The pod volume holding the host lists (and, with mpi, the hostfile). */
    public static final String VOLUME = "muster-svc";
    /** Where the host lists are mounted. */
    public static final String MOUNT_PATH = "/etc/muster";
    /** Where Volcano's images look for them. */
    public static final String VOLCANO_MOUNT_PATH = "/etc/volcano";
    static final String PUBLISH_NOT_READY = "publish-not-ready-addresses";
    static final String DISABLE_NETWORK_POLICY = "disable-network-policy";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<String> switches() {
        return Set.of(PUBLISH_NOT_READY, DISABLE_NETWORK_POLICY);
    }

    /** Name of the job's ConfigMap of host lists. */
    public static String configMapName(Job job) {
        return job.getMetadata().getName() + "-svc";
    }

    @Override
    public List<PluginObject> onJobCreate(Job job, PluginArgs args) {
        String jobName = job.getMetadata().getName();
        Map<String, String> selector = Map.of(MusterLabels.JOB_NAME, jobName);
        List<PluginObject> objects = new ArrayList<>();
        objects.add(new PluginObject(Service.class, jobName, () -> new ServiceBuilder()
                .withNewMetadata().withName(jobName).withLabels(selector).endMetadata()
                .withNewSpec().withClusterIP("None").withSelector(selector)
                .withPublishNotReadyAddresses(args.isSet(PUBLISH_NOT_READY)).endSpec()
                .build(), false));
        objects.add(new PluginObject(ConfigMap.class, configMapName(job), () -> new ConfigMapBuilder()
                .withNewMetadata().withName(configMapName(job)).withLabels(selector).endMetadata()
                .withData(hostFiles(job))
                .build(), true));
        if (!args.isSet(DISABLE_NETWORK_POLICY)) {
            objects.add(new PluginObject(NetworkPolicy.class, jobName, () -> new NetworkPolicyBuilder()
                    .withNewMetadata().withName(jobName).withLabels(selector).endMetadata()
                    .withNewSpec()
                    .withNewPodSelector().withMatchLabels(selector).endPodSelector()
                    .withPolicyTypes("Ingress")
                    .addNewIngress().addNewFrom().withNewPodSelector().withMatchLabels(selector).endPodSelector().endFrom()
                    .endIngress()
                    .endSpec()
                    .build(), false));
        }
        return objects;
    }

    /** The ConfigMap's data: {@code <task>.host}, one host per line, for every task. */
    static Map<String, String> hostFiles(Job job) {
        Map<String, String> data = new LinkedHashMap<>();
        for (TaskSpec task : job.getSpec().getTasks()) {
            data.put(task.getName() + ".host", String.join("\n", JobHosts.hosts(job, task)));
        }
        return data;
    }

    @Override
    public void onPodCreate(Job job, PluginArgs args, TaskSpec task, int index, Pod pod) {
        pod.getSpec().setHostname(JobDefaults.podName(job.getMetadata().getName(), task.getName(), index));
        pod.getSpec().setSubdomain(job.getMetadata().getName());
        for (TaskSpec each : job.getSpec().getTasks()) {
            String hosts = String.join(",", JobHosts.hosts(job, each));
            String num = Integer.toString(JobDefaults.replicas(each));
            for (String prefix : new String[] {"MUSTER_", "VC_"}) {
                PodEdits.env(pod, prefix + JobHosts.envName(each.getName()) + "_HOSTS", hosts);
                PodEdits.env(pod, prefix + JobHosts.envName(each.getName()) + "_NUM", num);
            }
        }
        PodEdits.volume(pod, new VolumeBuilder().withName(VOLUME).withNewProjected()
                .addNewSource().withNewConfigMap().withName(configMapName(job)).endConfigMap().endSource()
                .endProjected().build());
        PodEdits.mount(pod, VOLUME, MOUNT_PATH);
        PodEdits.mount(pod, VOLUME, VOLCANO_MOUNT_PATH);
    }
}
