package dev.muster.api.batch.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Min;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Desired state of a {@link Job}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class JobSpec {
    private String schedulerName;
    @Min(0)
    private Integer minAvailable;
    private List<TaskSpec> tasks = new ArrayList<>();
    private List<LifecyclePolicy> policies;
    private Map<String, List<String>> plugins;
    private String queue;
    private String priorityClassName;
    @Min(0)
    private Integer maxRetry;
    @Min(1)
    private Integer minSuccess;
    @Min(0)
    private Integer ttlSecondsAfterFinished;
    private Boolean suspend;
    private List<VolumeSpec> volumes;

    /** Scheduler for the job's pods; defaults to {@code muster}. */
    public String getSchedulerName() { return schedulerName; }
    public void setSchedulerName(String schedulerName) { this.schedulerName = schedulerName; }

    /** Pods that must run at once for the job to run; defaults to the sum of the tasks' minimums. */
    public Integer getMinAvailable() { return minAvailable; }
    public void setMinAvailable(Integer minAvailable) { this.minAvailable = minAvailable; }

    /** The job's tasks; at least one. */
    public List<TaskSpec> getTasks() { return tasks; }
    public void setTasks(List<TaskSpec> tasks) { this.tasks = tasks; }

    /** Job-level lifecycle policies; a task's own policies take precedence. */
    public List<LifecyclePolicy> getPolicies() { return policies; }
    public void setPolicies(List<LifecyclePolicy> policies) { this.policies = policies; }

    /** Plugins (for example {@code svc}, {@code env}, {@code ssh}) and their arguments. */
    public Map<String, List<String>> getPlugins() { return plugins; }
    public void setPlugins(Map<String, List<String>> plugins) { this.plugins = plugins == null ? null : new LinkedHashMap<>(plugins); }

    /** Queue the job is submitted to. */
    public String getQueue() { return queue; }
    public void setQueue(String queue) { this.queue = queue; }

    /** PriorityClass of the job's PodGroup. */
    public String getPriorityClassName() { return priorityClassName; }
    public void setPriorityClassName(String priorityClassName) { this.priorityClassName = priorityClassName; }

    /** Retries before the job fails; 0 means none; defaults to 3. */
    public Integer getMaxRetry() { return maxRetry; }
    public void setMaxRetry(Integer maxRetry) { this.maxRetry = maxRetry; }

    /** Succeeded pods that complete the job at once. */
    public Integer getMinSuccess() { return minSuccess; }
    public void setMinSuccess(Integer minSuccess) { this.minSuccess = minSuccess; }

    /** Seconds after the job finished before it is deleted. */
    public Integer getTtlSecondsAfterFinished() { return ttlSecondsAfterFinished; }
    public void setTtlSecondsAfterFinished(Integer ttlSecondsAfterFinished) { this.ttlSecondsAfterFinished = ttlSecondsAfterFinished; }

    /** As in batch/v1: true stops the job's pods and keeps the job, false resumes it. */
    public Boolean getSuspend() { return suspend; }
    public void setSuspend(Boolean suspend) { this.suspend = suspend; }

    /** Volumes mounted into every pod of the job. */
    public List<VolumeSpec> getVolumes() { return volumes; }
    public void setVolumes(List<VolumeSpec> volumes) { this.volumes = volumes; }
}
