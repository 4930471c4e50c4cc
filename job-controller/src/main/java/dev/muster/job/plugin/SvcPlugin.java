package dev.muster.job.plugin;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.rendering.plugin.JobHosts;
import dev.muster.rendering.plugin.PluginArgs;
import dev.muster.rendering.plugin.SvcPodPlugin;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code svc}'s objects: a headless Service named after the job, a ConfigMap {@code <job>-svc} with each
 * task's hosts (as files and as Volcano's variables), and a NetworkPolicy that admits only the job's pods. What the pods get (hostname, subdomain,
 * host lists in the environment, the ConfigMap mounted) is {@link SvcPodPlugin}'s.
 */
public final class SvcPlugin implements JobPlugin {
    @Override
    public String name() {
        return SvcPodPlugin.NAME;
    }

    @Override
    public List<PluginObject> onJobCreate(Job job, PluginArgs args) {
        String jobName = job.getMetadata().getName();
        Map<String, String> selector = Map.of(MusterLabels.JOB_NAME, jobName);
        List<PluginObject> objects = new ArrayList<>();
        objects.add(new PluginObject(Service.class, jobName, () -> new ServiceBuilder()
                .withNewMetadata().withName(jobName).withLabels(selector).endMetadata()
                .withNewSpec().withClusterIP("None").withSelector(selector)
                .withPublishNotReadyAddresses(args.isSet(SvcPodPlugin.PUBLISH_NOT_READY)).endSpec()
                .build(), false));
        objects.add(new PluginObject(ConfigMap.class, SvcPodPlugin.configMapName(job), () -> new ConfigMapBuilder()
                .withNewMetadata().withName(SvcPodPlugin.configMapName(job)).withLabels(selector).endMetadata()
                .withData(hostFiles(job))
                .build(), true));
        if (!args.isSet(SvcPodPlugin.DISABLE_NETWORK_POLICY)) {
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

    /**
     * The ConfigMap's data: for every task, {@code <task>.host}, one host per line, also under Volcano's name
     * for it ({@code -} as {@code _}) where that differs, and Volcano's {@code VC_<TASK>_HOSTS} and
     * {@code VC_<TASK>_NUM}, as in the pods' environment.
     */
    static Map<String, String> hostFiles(Job job) {
        Map<String, String> data = new LinkedHashMap<>();
        for (TaskSpec task : job.getSpec().getTasks()) {
            String hosts = String.join("\n", JobHosts.hosts(job, task));
            data.put(task.getName() + ".host", hosts);
            data.put(task.getName().replace('-', '_') + ".host", hosts);
        }
        data.putAll(SvcPodPlugin.hostVariables(job, SvcPodPlugin.VOLCANO_PREFIX));
        return data;
    }
}
