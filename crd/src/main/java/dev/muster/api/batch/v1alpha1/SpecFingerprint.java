package dev.muster.api.batch.v1alpha1;

import io.fabric8.kubernetes.client.utils.Serialization;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Fingerprints of the parts of a Job's spec that cannot change once it is accepted, by field path. Only
 * {@code tasks[].replicas}, {@code tasks[].minAvailable}, {@code minAvailable}, {@code priorityClassName} (as
 * Volcano allows: the PodGroup follows), {@code suspend} and {@code ttlSecondsAfterFinished} may change on a
 * live job; anything else would leave pods of two specs in one gang. The controller keeps the fingerprints
 * of the spec it accepted in {@code status.acceptedSpec} and compares; fingerprints rather than a copy keep
 * the status small.
 */
public final class SpecFingerprint {
    /** Fields a live job may change; named in the message that refuses any other change. */
    public static final String MUTABLE =
            "tasks[].replicas, tasks[].minAvailable, minAvailable, priorityClassName, suspend and ttlSecondsAfterFinished";
    /** A path fingerprinted by earlier versions whose field may now change; fingerprints accepted then still hold it. */
    private static final String NO_LONGER_FIXED = "spec.priorityClassName";

    private SpecFingerprint() {
    }

    /** Field path → fingerprint of every field that must not change on a live job. */
    public static Map<String, String> of(JobSpec spec) {
        Map<String, String> prints = new TreeMap<>();
        put(prints, "spec.schedulerName", spec.getSchedulerName());
        put(prints, "spec.queue", spec.getQueue());
        put(prints, "spec.maxRetry", spec.getMaxRetry());
        put(prints, "spec.minSuccess", spec.getMinSuccess());
        put(prints, "spec.maxRuntime", spec.getMaxRuntime());
        put(prints, "spec.runningEstimate", spec.getRunningEstimate());
        put(prints, "spec.networkTopology", spec.getNetworkTopology());
        put(prints, "spec.plugins", spec.getPlugins());
        put(prints, "spec.policies", spec.getPolicies());
        put(prints, "spec.volumes", spec.getVolumes());
        List<TaskSpec> tasks = JobDefaults.tasksOf(spec);
        put(prints, "spec.tasks", tasks.stream().map(TaskSpec::getName).toList());
        for (int i = 0; i < tasks.size(); i++) {
            TaskSpec task = tasks.get(i);
            String path = "spec.tasks[" + i + "]";
            put(prints, path + ".template", task.getTemplate());
            put(prints, path + ".policies", task.getPolicies());
            put(prints, path + ".dependsOn", task.getDependsOn());
            put(prints, path + ".maxRetry", task.getMaxRetry());
            put(prints, path + ".partitionPolicy", task.getPartitionPolicy());
            put(prints, path + ".topologyPolicy", task.getTopologyPolicy());
        }
        return prints;
    }

    /** The paths whose fingerprints differ, in path order; a changed task list hides its tasks' fields. */
    public static List<String> changed(Map<String, String> accepted, Map<String, String> now) {
        List<String> changed = new ArrayList<>();
        boolean tasksChanged = !Objects.equals(accepted.get("spec.tasks"), now.get("spec.tasks"));
        TreeMap<String, String> all = new TreeMap<>(accepted);
        now.forEach(all::putIfAbsent);
        for (String path : all.keySet()) {
            if (tasksChanged && path.startsWith("spec.tasks[") || path.equals(NO_LONGER_FIXED)) {
                continue;
            }
            if (!Objects.equals(accepted.get(path), now.get(path))) {
                changed.add(path);
            }
        }
        return changed;
    }

    private static void put(Map<String, String> prints, String path, Object value) {
        if (value != null) {
            prints.put(path, sha256(Serialization.asJson(value)));
        }
    }

    private static String sha256(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
