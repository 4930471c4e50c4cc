package dev.muster.rendering.plugin;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.TaskSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The DNS names of a job's pods: with the svc plugin each pod's hostname is its name and its subdomain the
 * job's headless Service, so pod {@code <job>-<task>-<i>} is {@code <job>-<task>-<i>.<job>} in the job's
 * namespace (the name Volcano's plugins hand out too).
 */
public final class JobHosts {
    private JobHosts() {
    }

    /** Host name of pod {@code index} of {@code task}. */
    public static String host(Job job, String task, int index) {
        String jobName = job.getMetadata().getName();
        return JobDefaults.podName(jobName, task, index) + "." + jobName;
    }

    /** Host names of every replica of the task, in index order. */
    public static List<String> hosts(Job job, TaskSpec task) {
        List<String> hosts = new ArrayList<>();
        for (int i = 0; i < JobDefaults.replicas(task); i++) {
            hosts.add(host(job, task.getName(), i));
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
}
