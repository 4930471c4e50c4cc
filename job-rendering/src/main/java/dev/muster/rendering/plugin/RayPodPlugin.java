package dev.muster.rendering.plugin;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.batch.v1alpha1.validation.FieldError;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code ray}, as Volcano 1.13's ray plugin: a Ray cluster of one head task and a worker task. The head task's
 * container {@code --headContainer} declares the GCS, dashboard and client-server ports and starts
 * {@code ray start --head --block} on them; the worker task's container {@code --workerContainer} starts
 * {@code ray start --block --address=<head>:<port>}, the head being pod 0 of the head task by its svc host
 * name. The Service {@code <job>-head-svc} in front of the head is the Job controller's.
 *
 * <p>One difference from Volcano, by Muster's rule that a plugin never overrides what the template sets: a
 * container whose template gives a {@code command} keeps it (Volcano replaces it), so an image that starts
 * Ray its own way still gets the ports and the Service.
 */
public final class RayPodPlugin implements PodPlugin {
    /** Plugin name in {@code spec.plugins}. */
    public static final String NAME = "ray";
    /** Argument: the head task (default {@value #DEFAULT_HEAD}). */
    public static final String HEAD = "head";
    /** Argument: the container of a head pod that runs Ray (default {@value #DEFAULT_HEAD}). */
    public static final String HEAD_CONTAINER = "headContainer";
    /** Argument: the worker task (default {@value #DEFAULT_WORKER}). */
    public static final String WORKER = "worker";
    /** Argument: the container of a worker pod that runs Ray (default {@value #DEFAULT_WORKER}). */
    public static final String WORKER_CONTAINER = "workerContainer";
    /** Argument: the Global Control Store's port, which workers join (default {@value #DEFAULT_PORT}). */
    public static final String PORT = "port";
    /** Argument: the Ray dashboard's port (default {@value #DEFAULT_DASHBOARD_PORT}). */
    public static final String DASHBOARD_PORT = "dashboardPort";
    /** Argument: the Ray client server's port (default {@value #DEFAULT_CLIENT_PORT}). */
    public static final String CLIENT_PORT = "clientPort";
    static final String DEFAULT_HEAD = "head";
    static final String DEFAULT_WORKER = "worker";
    static final int DEFAULT_PORT = 6379;
    static final int DEFAULT_DASHBOARD_PORT = 8265;
    static final int DEFAULT_CLIENT_PORT = 10001;
    /** Port names, Volcano's; the head Service names its ports the same. */
    public static final String GCS_PORT_NAME = "gcs";
    /** Name of the dashboard port. */
    public static final String DASHBOARD_PORT_NAME = "dashboard";
    /** Name of the client-server port. */
    public static final String CLIENT_PORT_NAME = "client-server";

    /**
     * The arguments, each defaulted.
     *
     * @param head            the head task
     * @param headContainer   the container of a head pod that runs Ray
     * @param worker          the worker task
     * @param workerContainer the container of a worker pod that runs Ray
     * @param port            the GCS port
     * @param dashboardPort   the dashboard port
     * @param clientPort      the client server port
     */
    public record Settings(String head, String headContainer, String worker, String workerContainer, int port,
                           int dashboardPort, int clientPort) {
        /** The settings {@code args} give; only for arguments {@link RayPodPlugin#validate} accepted. */
        public static Settings of(PluginArgs args) {
            return new Settings(args.value(HEAD, DEFAULT_HEAD), args.value(HEAD_CONTAINER, DEFAULT_HEAD),
                    args.value(WORKER, DEFAULT_WORKER), args.value(WORKER_CONTAINER, DEFAULT_WORKER),
                    Integer.parseInt(args.value(PORT, Integer.toString(DEFAULT_PORT))),
                    Integer.parseInt(args.value(DASHBOARD_PORT, Integer.toString(DEFAULT_DASHBOARD_PORT))),
                    Integer.parseInt(args.value(CLIENT_PORT, Integer.toString(DEFAULT_CLIENT_PORT))));
        }
    }

    /** Name of the Service in front of the head pod, Volcano's. */
    public static String headServiceName(Job job) {
        return job.getMetadata().getName() + "-head-svc";
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<String> valuedArguments() {
        return Set.of(HEAD, HEAD_CONTAINER, WORKER, WORKER_CONTAINER, PORT, DASHBOARD_PORT, CLIENT_PORT);
    }

    /** As in Volcano, whose job webhook adds {@code svc} to a job with {@code ray}: workers find the head by name. */
    @Override
    public List<String> implies() {
        return List.of(SvcPodPlugin.NAME);
    }

    /**
     * The head task must exist (Volcano fails every pod of a job without it), and a worker task named by
     * {@code --worker} too. A container named by {@code --headContainer} or {@code --workerContainer} must be in
     * its task's template: Volcano would silently start nothing there. With the default names, a template
     * without such a container is left as it is, as in Volcano, so a job that starts Ray itself still ports.
     */
    @Override
    public void validate(Job job, PluginArgs args, List<FieldError> errors) {
        TaskArgument.check(job, NAME, args, HEAD, DEFAULT_HEAD, true, errors);
        TaskArgument.check(job, NAME, args, WORKER, DEFAULT_WORKER, false, errors);
        Ports.check(NAME, args, PORT, errors);
        Ports.check(NAME, args, DASHBOARD_PORT, errors);
        Ports.check(NAME, args, CLIENT_PORT, errors);
        checkContainer(job, args, HEAD_CONTAINER, args.value(HEAD, DEFAULT_HEAD), errors);
        checkContainer(job, args, WORKER_CONTAINER, args.value(WORKER, DEFAULT_WORKER), errors);
    }

    private static void checkContainer(Job job, PluginArgs args, String argument, String taskName,
                                       List<FieldError> errors) {
        Optional<String> container = args.value(argument);
        Optional<TaskSpec> task = JobHosts.task(job, taskName);
        if (container.isEmpty() || task.isEmpty()) {
            return;
        }
        List<String> names = task.get().getTemplate() == null || task.get().getTemplate().getSpec() == null
                || task.get().getTemplate().getSpec().getContainers() == null ? List.of()
                : task.get().getTemplate().getSpec().getContainers().stream().map(Container::getName).toList();
        if (!names.contains(container.get())) {
            errors.add(new FieldError("spec.plugins." + NAME, "argument --" + argument + " names container '"
                    + container.get() + "', which task '" + taskName + "' does not have; its containers are "
                    + (names.isEmpty() ? "none" : String.join(", ", names))));
        }
    }

    @Override
    public void onPodCreate(Job job, PluginArgs args, TaskSpec task, int index, Pod pod) {
        Settings ray = Settings.of(args);
        boolean head = task.getName().equals(ray.head());
        boolean worker = task.getName().equals(ray.worker());
        if (!head && !worker || pod.getSpec().getContainers() == null) {
            return;
        }
        String containerName = head ? ray.headContainer() : ray.workerContainer();
        for (Container container : pod.getSpec().getContainers()) {
            if (!containerName.equals(container.getName())) {
                continue;
            }
            if (head) {
                declare(container, GCS_PORT_NAME, ray.port());
                declare(container, DASHBOARD_PORT_NAME, ray.dashboardPort());
                declare(container, CLIENT_PORT_NAME, ray.clientPort());
            }
            if (container.getCommand() == null || container.getCommand().isEmpty()) {
                container.setCommand(List.of("sh", "-c", head ? headCommand(ray)
                        : workerCommand(JobHosts.host(job, ray.head(), 0), ray.port())));
            }
        }
    }

    /** The head's Ray start: the dashboard on every interface, so that the head Service reaches it. */
    static String headCommand(Settings ray) {
        return "ray start --head --block --dashboard-host=0.0.0.0 --port=" + ray.port() + " --dashboard-port="
                + ray.dashboardPort() + " --ray-client-server-port=" + ray.clientPort();
    }

    /** A worker's Ray start, joining the head's GCS. */
    static String workerCommand(String headHost, int port) {
        return "ray start --block --address=" + headHost + ":" + port;
    }

    /** Declares the port on this container unless it declares that number already (under any name). */
    private static void declare(Container container, String name, int port) {
        List<ContainerPort> ports = container.getPorts() == null ? new ArrayList<>() : new ArrayList<>(container.getPorts());
        if (ports.stream().noneMatch(p -> p.getContainerPort() != null && p.getContainerPort() == port)) {
            ports.add(new ContainerPortBuilder().withName(name).withContainerPort(port).withProtocol("TCP").build());
        }
        container.setPorts(ports);
    }
}
