package dev.muster.rendering.plugin;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** Additions plugins make to a freshly built pod; none overrides what the template already sets. */
public final class PodEdits {
    private PodEdits() {
    }

    /** Sets the variable in every container and init container that does not set it already. */
    public static void env(Pod pod, String name, String value) {
        containers(pod).forEach(c -> {
            List<EnvVar> env = c.getEnv() == null ? new ArrayList<>() : new ArrayList<>(c.getEnv());
            if (env.stream().noneMatch(e -> name.equals(e.getName()))) {
                env.add(new EnvVar(name, value, null));
            }
            c.setEnv(env);
        });
    }

    /** Adds the volume unless the pod has one of that name. */
    public static void volume(Pod pod, Volume volume) {
        List<Volume> volumes = pod.getSpec().getVolumes() == null ? new ArrayList<>() : new ArrayList<>(pod.getSpec().getVolumes());
        if (volumes.stream().noneMatch(v -> volume.getName().equals(v.getName()))) {
            volumes.add(volume);
        }
        pod.getSpec().setVolumes(volumes);
    }

    /** The pod's volume of that name. */
    public static Optional<Volume> findVolume(Pod pod, String name) {
        return pod.getSpec().getVolumes() == null ? Optional.empty()
                : pod.getSpec().getVolumes().stream().filter(v -> name.equals(v.getName())).findFirst();
    }

    /** Mounts the volume read-only at {@code path} in every container and init container that has nothing there. */
    public static void mount(Pod pod, String volume, String path) {
        mount(pod, volume, path, true);
    }

    /** Mounts the volume at {@code path} in every container and init container that has nothing there. */
    public static void mount(Pod pod, String volume, String path, boolean readOnly) {
        mount(pod, new VolumeMountBuilder().withName(volume).withMountPath(path).withReadOnly(readOnly).build());
    }

    /** Adds {@code mount} to every container and init container that has nothing at its path. */
    public static void mount(Pod pod, VolumeMount mount) {
        String path = mount.getMountPath();
        containers(pod).forEach(c -> {
            List<VolumeMount> mounts = c.getVolumeMounts() == null ? new ArrayList<>() : new ArrayList<>(c.getVolumeMounts());
            if (mounts.stream().noneMatch(m -> path.equals(m.getMountPath()))) {
                mounts.add(mount);
            }
            c.setVolumeMounts(mounts);
        });
    }

    /** Declares the port on the pod's first container, unless a container declares it already. */
    public static void port(Pod pod, String name, int port) {
        List<Container> main = pod.getSpec().getContainers();
        if (main == null || main.isEmpty() || main.stream().anyMatch(c -> c.getPorts() != null
                && c.getPorts().stream().anyMatch(p -> p.getContainerPort() != null && p.getContainerPort() == port))) {
            return;
        }
        Container first = main.get(0);
        List<ContainerPort> ports = first.getPorts() == null ? new ArrayList<>() : new ArrayList<>(first.getPorts());
        ports.add(new ContainerPortBuilder().withName(name).withContainerPort(port).withProtocol("TCP").build());
        first.setPorts(ports);
    }

    private static Stream<Container> containers(Pod pod) {
        return Stream.concat(
                pod.getSpec().getInitContainers() == null ? Stream.empty() : pod.getSpec().getInitContainers().stream(),
                pod.getSpec().getContainers() == null ? Stream.empty() : pod.getSpec().getContainers().stream());
    }
}
