package dev.muster.rendering.plugin;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.batch.v1alpha1.validation.FieldError;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code pytorch}: what {@code torch.distributed} reads from the environment. Master and worker pods get
 * {@code MASTER_ADDR} (the first master pod's host), {@code MASTER_PORT}, {@code WORLD_SIZE} (all
 * replicas of both tasks) and {@code RANK} (masters first, then workers by index), and declare the port.
 * With {@code --wait-master-enabled}, as Volcano's plugin, each worker pod gets a last init container
 * {@value #WAIT_CONTAINER} that waits, up to {@code --wait-master-timeout} seconds, until the master's port
 * accepts connections, so that workers do not fail while the master is still starting; it asks for no privilege
 * and sets its resources, so that it passes the {@code restricted} Pod Security level and quotas on limits.
 */
public final class PyTorchPodPlugin implements PodPlugin {
    /** Plugin name in {@code spec.plugins}. */
    public static final String NAME = "pytorch";
    static final String DEFAULT_PORT = "23456";
    /** Switch: workers wait for the master's port before they start. */
    public static final String WAIT_MASTER_ENABLED = "wait-master-enabled";
    /** Argument: how long a worker waits, in seconds, before its init container fails. */
    public static final String WAIT_MASTER_TIMEOUT = "wait-master-timeout";
    /** Argument: the image of the init container; it needs {@code sh}, {@code nc} and {@code date}. */
    public static final String WAIT_MASTER_IMAGE = "wait-master-image";
    /** Volcano's default timeout, in seconds. */
    public static final int DEFAULT_WAIT_MASTER_TIMEOUT = 300;
    /** Volcano's default image. */
    public static final String DEFAULT_WAIT_MASTER_IMAGE = "busybox:1.36.1";
    /** Name of the init container; a template that has one of that name keeps its own, as in Volcano. */
    public static final String WAIT_CONTAINER = "wait-for-master";
    /**
     * Requests and limits of the wait container, equal: a namespace whose ResourceQuota covers {@code limits.cpu} or
     * {@code limits.memory} refuses a pod with a container that sets none, and a shell polling a port needs little.
     */
    static final Map<String, Quantity> WAIT_RESOURCES = Map.of("cpu", new Quantity("100m"), "memory", new Quantity("64Mi"));

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<String> valuedArguments() {
        Set<String> arguments = new HashSet<>(MasterWorker.ARGUMENTS);
        arguments.addAll(Set.of(WAIT_MASTER_TIMEOUT, WAIT_MASTER_IMAGE));
        return Set.copyOf(arguments);
    }

    @Override
    public Set<String> switches() {
        return Set.of(WAIT_MASTER_ENABLED);
    }

    @Override
    public List<String> implies() {
        return List.of(SvcPodPlugin.NAME);
    }

    @Override
    public void validate(Job job, PluginArgs args, List<FieldError> errors) {
        MasterWorker.validate(job, NAME, args, false, errors);
        args.value(WAIT_MASTER_TIMEOUT).ifPresent(value -> {
            if (!value.matches("[0-9]{1,9}")) {
                errors.add(new FieldError("spec.plugins." + NAME, "argument --" + WAIT_MASTER_TIMEOUT
                        + " must be a whole number of seconds, was '" + value + "'"));
            }
        });
        if (args.value(WAIT_MASTER_IMAGE).filter(String::isBlank).isPresent()) {
            errors.add(new FieldError("spec.plugins." + NAME, "argument --" + WAIT_MASTER_IMAGE + " must name an image"));
        }
    }

    @Override
    public void onPodCreate(Job job, PluginArgs args, TaskSpec task, int index, Pod pod) {
        MasterWorker roles = MasterWorker.of(args, DEFAULT_PORT);
        if (!task.getName().equals(roles.master()) && !task.getName().equals(roles.worker())) {
            return;
        }
        int masters = JobHosts.task(job, roles.master()).map(JobDefaults::replicas).orElse(0);
        int workers = JobHosts.task(job, roles.worker()).map(JobDefaults::replicas).orElse(0);
        int rank = task.getName().equals(roles.master()) ? index : masters + index;
        PodEdits.env(pod, "MASTER_ADDR", JobHosts.host(job, roles.master(), 0));
        PodEdits.env(pod, "MASTER_PORT", Integer.toString(roles.port()));
        PodEdits.env(pod, "WORLD_SIZE", Integer.toString(masters + workers));
        PodEdits.env(pod, "RANK", Integer.toString(rank));
        PodEdits.port(pod, "pytorchjob-port", roles.port());
        if (task.getName().equals(roles.worker()) && args.isSet(WAIT_MASTER_ENABLED)) {
            waitForMaster(pod, JobHosts.host(job, roles.master(), 0), roles.port(),
                    Integer.parseInt(args.value(WAIT_MASTER_TIMEOUT, Integer.toString(DEFAULT_WAIT_MASTER_TIMEOUT))),
                    args.value(WAIT_MASTER_IMAGE, DEFAULT_WAIT_MASTER_IMAGE));
        }
    }

    private static void waitForMaster(Pod pod, String host, int port, int timeoutSeconds, String image) {
        List<Container> init = pod.getSpec().getInitContainers() == null ? new ArrayList<>()
                : new ArrayList<>(pod.getSpec().getInitContainers());
        if (init.stream().anyMatch(c -> WAIT_CONTAINER.equals(c.getName()))) {
            return;
        }
        init.add(new ContainerBuilder().withName(WAIT_CONTAINER).withImage(image)
                .withCommand("sh", "-c", waitScript(host, port, timeoutSeconds))
                .withResources(new ResourceRequirementsBuilder().withRequests(WAIT_RESOURCES).withLimits(WAIT_RESOURCES).build())
                .withSecurityContext(waitSecurityContext(pod.getSpec().getContainers().get(0).getSecurityContext()))
                .build());
        pod.getSpec().setInitContainers(init);
    }

    /**
     * What the wait container may do, which is nothing but open a connection: no privilege escalation, no
     * capabilities, the runtime's default seccomp profile, which is what the {@code restricted} Pod Security level
     * asks of every container (an added container without it would make a namespace that enforces the level refuse
     * every worker pod, however the user's own containers are written). The user it runs as is the task's first
     * container's, if that container says ({@code runAsNonRoot}, {@code runAsUser}, {@code runAsGroup}); otherwise
     * the pod's: no fixed UID, which OpenShift's {@code restricted-v2} would refuse outside the namespace's range.
     */
    private static SecurityContext waitSecurityContext(SecurityContext main) {
        SecurityContextBuilder context = new SecurityContextBuilder().withAllowPrivilegeEscalation(false)
                .withNewCapabilities().withDrop("ALL").endCapabilities()
                .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile();
        if (main != null) {
            context.withRunAsNonRoot(main.getRunAsNonRoot()).withRunAsUser(main.getRunAsUser())
                    .withRunAsGroup(main.getRunAsGroup());
        }
        return context.build();
    }

    /**
     * Polls {@code host:port} every 2 seconds with {@code nc -z} (busybox's and netcat's), or bash's
     * {@code /dev/tcp} where there is no nc, and gives up with exit 1 after {@code timeoutSeconds}.
     */
    static String waitScript(String host, int port, int timeoutSeconds) {
        String target = host + ":" + port;
        return "echo \"waiting up to " + timeoutSeconds + "s for the master at " + target + "\"\n"
                + "deadline=$(( $(date +%s) + " + timeoutSeconds + " ))\n"
                + "until { nc -z -w 2 " + host + " " + port + " || echo > /dev/tcp/" + host + "/" + port + "; } 2>/dev/null; do\n"
                + "  if [ \"$(date +%s)\" -ge \"$deadline\" ]; then\n"
                + "    echo \"the master at " + target + " did not accept connections within " + timeoutSeconds + "s\" >&2\n"
                + "    exit 1\n"
                + "  fi\n"
                + "  sleep 2\n"
                + "done\n"
                + "echo \"the master at " + target + " accepts connections\"\n";
    }
}
