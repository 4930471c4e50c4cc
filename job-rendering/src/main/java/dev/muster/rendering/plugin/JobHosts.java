package dev.muster.rendering.plugin;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.TaskSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The DNS names of a job's pods, {@code <hostname>.<subdomain>}: with the svc plugin each pod's hostname is
 * its name and its subdomain the job's headless Service, unless its template sets them, so pod
 * {@code <job>-<task>-<i>} is {@code <job>-<task>-<i>.<job>} in the job's namespace. These are the names
 * Volcano's plugins hand out too (its svc plugin's {@code GenerateHosts}), including for a template that sets
 * its own hostname: every pod of that task has the same name, listed once.
 */
public final class JobHosts {
    private JobHosts() {
    }

    /** Host name of pod {@code index} of the task named {@code task}. */
    public static String host(Job job, String task, int index) {
        return task(job, task).map(spec -> host(job, spec, index))
                .orElseGet(() -> JobDefaults.podName(job.getMetadata().getName(), task, index) + "." + job.getMetadata().getName());
    }

    /** Host name of pod {@code index} of {@code task}: its hostname, a dot, its subdomain. */
    public static String host(Job job, TaskSpec task, int index) {
        String jobName = job.getMetadata().getName();
        String hostname = templateHostname(task);
        String subdomain = task.getTemplate() == null || task.getTemplate().getSpec() == null ? null
                : task.getTemplate().getSpec().getSubdomain();
        return (hostname == null ? JobDefaults.podName(jobName, task.getName(), index) : hostname) + "."
                + (subdomain == null || subdomain.isEmpty() ? jobName : subdomain);
    }

    /**
     * Host names of every replica of the task, in index order; one name if the template sets the hostname,
     * which all its pods then share.
     */
    public static List<String> hosts(Job job, TaskSpec task) {
        int replicas = JobDefaults.replicas(task);
        if (templateHostname(task) != null) {
            return replicas == 0 ? List.of() : List.of(host(job, task, 0));
        }
        List<String> hosts = new ArrayList<>();
        for (int i = 0; i < replicas; i++) {
            hosts.add(host(job, task, i));
        }
        return hosts;
    }

    /** The job's task of that name. */
    public static Optional<TaskSpec> task(Job job, String name) {
        return job.getSpec().getTasks().stream().filter(t -> t.getName().equals(name)).findFirst();
    }

    /** The task's name in an environment variable: upper case, {@code -} as {@code _}. */
    public static String envName(String task) {
        return task.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    private static String templateHostname(TaskSpec task) {
        String hostname = task.getTemplate() == null || task.getTemplate().getSpec() == null ? null
                : task.getTemplate().getSpec().getHostname();
        return hostname == null || hostname.isEmpty() ? null : hostname;
    }
}
