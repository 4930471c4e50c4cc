package dev.muster.job.plugin;

import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.rendering.plugin.PluginArgs;
import dev.muster.rendering.plugin.RayPodPlugin;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;

import java.util.List;
import java.util.Map;

/**
 * {@code ray}'s object, Volcano's: a Service {@code <job>-head-svc} (ClusterIP) selecting the head task's pods,
 * with the GCS, dashboard and client-server ports, so that clients reach the Ray cluster by one stable name.
 * Its target ports are the port numbers, not Volcano's port names, so a head container that already declares
 * one of the numbers under a name of its own is still reached. What the pods get is {@link RayPodPlugin}'s.
 */
public final class RayPlugin implements JobPlugin {
    @Override
    public String name() {
        return RayPodPlugin.NAME;
    }

    @Override
    public List<PluginObject> onJobCreate(Job job, PluginArgs args) {
        String jobName = job.getMetadata().getName();
        RayPodPlugin.Settings ray = RayPodPlugin.Settings.of(args);
        String name = RayPodPlugin.headServiceName(job);
        return List.of(new PluginObject(Service.class, name, () -> new ServiceBuilder()
                .withNewMetadata().withName(name).withLabels(Map.of(MusterLabels.JOB_NAME, jobName)).endMetadata()
                .withNewSpec()
                .withSelector(Map.of(MusterLabels.JOB_NAME, jobName, MusterLabels.TASK_NAME, ray.head()))
                .withPorts(port(RayPodPlugin.GCS_PORT_NAME, ray.port()),
                        port(RayPodPlugin.DASHBOARD_PORT_NAME, ray.dashboardPort()),
                        port(RayPodPlugin.CLIENT_PORT_NAME, ray.clientPort()))
                .endSpec()
                .build(), false));
    }

    private static ServicePort port(String name, int port) {
        return new ServicePortBuilder().withName(name).withPort(port).withTargetPort(new IntOrString(port))
                .withProtocol("TCP").build();
    }
}
