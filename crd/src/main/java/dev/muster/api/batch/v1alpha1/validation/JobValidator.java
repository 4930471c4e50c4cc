package dev.muster.api.batch.v1alpha1.validation;

import dev.muster.api.batch.v1alpha1.GoDuration;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.JobPolicies;
import dev.muster.api.batch.v1alpha1.JobSpec;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.batch.v1alpha1.VolumeSpec;
import io.fabric8.kubernetes.client.utils.KubernetesResourceUtil;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** Checks that a Job can run and lists every problem by field path; a pure function of the Job. */
public final class JobValidator {
    /** A pod name is a DNS-1123 label, so at most this long. */
    private static final int MAX_LABEL = 63;

    private JobValidator() {
    }

    /** Every problem found; empty when the Job is valid. */
    public static List<FieldError> validate(Job job) {
        List<FieldError> errors = new ArrayList<>();
        if (job.readFailure().isPresent()) {
            // The part that could not be read is missing from the object; nothing else can be judged.
            errors.add(new FieldError(job.readFailure().get().field(), job.readFailure().get().reason()));
            return errors;
        }
        JobSpec spec = job.getSpec();
        if (spec == null) {
            errors.add(new FieldError("spec", "is required"));
            return errors;
        }
        List<TaskSpec> tasks = spec.getTasks();
        if (tasks == null || tasks.isEmpty()) {
            errors.add(new FieldError("spec.tasks", "must list at least one task"));
            return errors;
        }
        if (tasks.size() > JobDefaults.MAX_TASKS) {
            errors.add(new FieldError("spec.tasks", "must list at most " + JobDefaults.MAX_TASKS + " tasks, has " + tasks.size()));
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < tasks.size(); i++) {
            validateTask(job.getMetadata().getName(), tasks.get(i), "spec.tasks[" + i + "]", names, errors);
        }
        int total = JobDefaults.totalReplicas(spec);
        podCount("spec.minAvailable", spec.getMinAvailable(), 0, total, errors);
        if (spec.getMaxRetry() != null && spec.getMaxRetry() < 0) {
            errors.add(new FieldError("spec.maxRetry", "must be >= 0, was " + spec.getMaxRetry()));
        }
        podCount("spec.minSuccess", spec.getMinSuccess(), 1, total, errors);
        if (spec.getTtlSecondsAfterFinished() != null && spec.getTtlSecondsAfterFinished() < 0) {
            errors.add(new FieldError("spec.ttlSecondsAfterFinished", "must be >= 0, was " + spec.getTtlSecondsAfterFinished()));
        }
        if (spec.getMaxRuntime() != null) {
            try {
                GoDuration.parse(spec.getMaxRuntime());
            } catch (IllegalArgumentException e) {
                errors.add(new FieldError("spec.maxRuntime", e.getMessage()));
            }
        }
        TopologyFieldsValidator.validateJob(spec, errors);
        PolicyValidator.validate(spec.getPolicies(), "spec.policies", errors);
        DependencyValidator.validate(tasks, errors);
        validateVolumes(spec.getVolumes(), errors);
        if (spec.getPlugins() != null) {
            for (String plugin : spec.getPlugins().keySet()) {
                if (!JobPolicies.PLUGINS.contains(plugin)) {
                    errors.add(new FieldError("spec.plugins." + plugin, "unknown plugin '" + plugin + "'; one of "
                            + String.join(", ", JobPolicies.PLUGINS)));
                }
            }
        }
        return errors;
    }

    /** The problems joined into one message, as shown in status and events. */
    public static String describe(List<FieldError> errors) {
        return errors.stream().map(FieldError::toString).collect(Collectors.joining("; "));
    }

    /** Each volume: an absolute mountPath of its own, and either an existing claim's name or a claim to make. */
    private static void validateVolumes(List<VolumeSpec> volumes, List<FieldError> errors) {
        if (volumes == null) {
            return;
        }
        if (volumes.size() > JobDefaults.MAX_VOLUMES) {
            errors.add(new FieldError("spec.volumes", "must list at most " + JobDefaults.MAX_VOLUMES + " volumes, has " + volumes.size()));
        }
        Set<String> paths = new HashSet<>();
        for (int i = 0; i < volumes.size(); i++) {
            String path = "spec.volumes[" + i + "]";
            VolumeSpec volume = volumes.get(i);
            if (volume == null) {
                errors.add(new FieldError(path, "must not be null"));
                continue;
            }
            String mountPath = volume.getMountPath();
            if (mountPath == null || mountPath.isEmpty()) {
                errors.add(new FieldError(path + ".mountPath", "is required"));
            } else if (!mountPath.startsWith("/")) {
                errors.add(new FieldError(path + ".mountPath", "must be an absolute path, was '" + mountPath + "'"));
            } else if (!paths.add(mountPath)) {
                errors.add(new FieldError(path + ".mountPath", "'" + mountPath + "' is the mountPath of another volume"));
            }
            boolean named = volume.getVolumeClaimName() != null;
            if (named == (volume.getVolumeClaim() != null)) {
                errors.add(new FieldError(path, "set either volumeClaimName or volumeClaim, exactly one of them"));
            } else if (named && !KubernetesResourceUtil.isValidName(volume.getVolumeClaimName())) {
                errors.add(new FieldError(path + ".volumeClaimName", "'" + volume.getVolumeClaimName()
                        + "' is not a valid claim name"));
            }
        }
    }

    /** A job-level number of pods, if set: at least {@code min}, at most the total replicas of all tasks. */
    private static void podCount(String path, Integer value, int min, int total, List<FieldError> errors) {
        if (value == null) {
            return;
        }
        if (value < min) {
            errors.add(new FieldError(path, "must be >= " + min + ", was " + value));
        } else if (value > total) {
            errors.add(new FieldError(path, "must not exceed the total replicas of all tasks (" + total + "), was " + value));
        }
    }

    private static void validateTask(String jobName, TaskSpec task, String path, Set<String> names, List<FieldError> errors) {
        if (task == null) {
            errors.add(new FieldError(path, "must not be null"));
            return;
        }
        String name = task.getName();
        if (name == null || name.isEmpty()) {
            errors.add(new FieldError(path + ".name", "is required"));
        } else {
            // fabric8's DNS-1123 label check, the 63-character limit included.
            if (!KubernetesResourceUtil.isValidName(name)) {
                errors.add(new FieldError(path + ".name", "'" + name + "' must be a DNS-1123 label (lower-case "
                        + "letters, digits and '-', starting and ending with a letter or digit)"));
            }
            if (!names.add(name)) {
                errors.add(new FieldError(path + ".name", "duplicate task name '" + name + "'"));
            }
        }
        if (task.getReplicas() != null && task.getReplicas() < 0) {
            errors.add(new FieldError(path + ".replicas", "must be >= 0, was " + task.getReplicas()));
        }
        if (task.getMinAvailable() != null) {
            if (task.getMinAvailable() < 0) {
                errors.add(new FieldError(path + ".minAvailable", "must be >= 0, was " + task.getMinAvailable()));
            } else if (task.getMinAvailable() > JobDefaults.replicas(task)) {
                errors.add(new FieldError(path + ".minAvailable", "must not exceed replicas ("
                        + JobDefaults.replicas(task) + "), was " + task.getMinAvailable()));
            }
        }
        if (task.getMaxRetry() != null && task.getMaxRetry() < 0) {
            errors.add(new FieldError(path + ".maxRetry", "must be >= 0, was " + task.getMaxRetry()));
        }
        PolicyValidator.validate(task.getPolicies(), path + ".policies", errors);
        TopologyFieldsValidator.validateTask(task, path, errors);
        if (task.getTemplate() == null || task.getTemplate().getSpec() == null
                || task.getTemplate().getSpec().getContainers() == null
                || task.getTemplate().getSpec().getContainers().isEmpty()) {
            errors.add(new FieldError(path + ".template.spec.containers", "must list at least one container"));
        }
        if (jobName != null && name != null) {
            String longest = JobDefaults.podName(jobName, name, Math.max(0, JobDefaults.replicas(task) - 1));
            if (longest.length() > MAX_LABEL) {
                errors.add(new FieldError(path + ".name", "pod name '" + longest + "' would be "
                        + longest.length() + " characters, more than " + MAX_LABEL));
            }
        }
    }
}
