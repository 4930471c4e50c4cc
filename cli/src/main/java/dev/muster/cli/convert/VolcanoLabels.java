package dev.muster.cli.convert;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.muster.api.MusterLabels;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Volcano's pod labels and the Muster labels that carry the same fact. Label selectors and downward-API field
 * paths that name a Volcano label are rewritten to Muster's, so anti-affinity between a job's pods, a Service
 * that selects them or a NetworkPolicy keeps selecting the same pods whatever the cluster's settings. Selectors
 * on {@code volcano.sh/job-namespace} and {@code volcano.sh/queue-name}, which have no Muster label, are kept:
 * Muster's pods carry them (and the others) while {@code muster.controllers.volcano-pod-labels} is on, the
 * default, which the converter, working offline, cannot see; it says so.
 */
final class VolcanoLabels {
    /** Volcano label (pkg/apis batch labels: job-name, task-spec, task-index, partition-id) → Muster label. */
    static final Map<String, String> TO_MUSTER = Map.of(
            "volcano.sh/job-name", MusterLabels.JOB_NAME,
            "volcano.sh/task-spec", MusterLabels.TASK_NAME,
            "volcano.sh/task-index", MusterLabels.TASK_INDEX,
            "volcano.sh/partition-id", MusterLabels.PARTITION_ID);

    /** Volcano labels Muster has no label of its own for, which its pods carry while the setting is on. */
    static final List<String> KEPT_WHILE_ON = List.of("volcano.sh/job-namespace", "volcano.sh/queue-name");

    private static final Pattern FIELD_PATH = Pattern.compile("metadata\\.(labels|annotations)\\['([^']+)'\\]");

    private VolcanoLabels() {
    }

    /**
     * Rewrites, anywhere below {@code node}, the keys of {@code matchLabels}, the {@code key} of
     * {@code matchExpressions} entries and downward-API {@code fieldPath}s; adds each change to
     * {@code changes} and each Volcano label without a Muster counterpart to {@code unmapped}, by path.
     */
    static void rewrite(JsonNode node, String path, List<String> changes, List<String> unmapped) {
        walk(node, path, changes, unmapped);
    }

    /** Renames the Volcano keys of a plain label map in place ({@code spec.selector} of a Service). */
    static void renameKeys(ObjectNode labels, String path, List<String> changes, List<String> unmapped) {
        List<String> keys = new ArrayList<>();
        labels.fieldNames().forEachRemaining(keys::add);
        for (String key : keys) {
            String muster = TO_MUSTER.get(key);
            if (muster != null) {
                JsonNode value = labels.remove(key);
                labels.set(muster, value);
                changes.add(path + ": label " + key + " -> " + muster);
            } else if (key.startsWith("volcano.sh/")) {
                unmapped.add(path + ": " + noCounterpart(key));
            }
        }
    }

    /**
     * A downward-API path to a Volcano label or annotation as the path to Muster's label. Volcano puts the task
     * index in an annotation (and, lately, a label too); Muster has it as a label only.
     */
    static String fieldPath(String path) {
        Matcher matcher = FIELD_PATH.matcher(path);
        if (!matcher.matches() || !TO_MUSTER.containsKey(matcher.group(2))) {
            return path;
        }
        return "metadata.labels['" + TO_MUSTER.get(matcher.group(2)) + "']";
    }

    /** What becomes of a selector on a Volcano label that is not rewritten. */
    private static String noCounterpart(String label) {
        if (KEPT_WHILE_ON.contains(label)) {
            return "label " + label + " kept: Muster has no label of its own for it, but its pods carry Volcano's "
                    + "while muster.controllers.volcano-pod-labels is on (the default), so the selector works; "
                    + "with it off it matches no Muster pod";
        }
        return "label " + label + " has no Muster counterpart; the selector will match no Muster pod";
    }

    private static void walk(JsonNode node, String path, List<String> changes, List<String> unmapped) {
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), path + "[" + i + "]", changes, unmapped);
            }
            return;
        }
        if (!node.isObject()) {
            return;
        }
        ObjectNode object = (ObjectNode) node;
        if (object.get("matchLabels") instanceof ObjectNode labels) {
            renameKeys(labels, path + ".matchLabels", changes, unmapped);
        }
        if (object.get("key") instanceof TextNode key && object.has("operator")) {
            String muster = TO_MUSTER.get(key.asText());
            if (muster != null) {
                object.put("key", muster);
                changes.add(path + ".key: " + key.asText() + " -> " + muster);
            } else if (key.asText().startsWith("volcano.sh/")) {
                unmapped.add(path + ".key: " + noCounterpart(key.asText()));
            }
        }
        if (object.get("fieldPath") instanceof TextNode fieldPath) {
            String rewritten = fieldPath(fieldPath.asText());
            if (!rewritten.equals(fieldPath.asText())) {
                object.put("fieldPath", rewritten);
                changes.add(path + ".fieldPath: " + fieldPath.asText() + " -> " + rewritten);
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            walk(field.getValue(), path.isEmpty() ? field.getKey() : path + "." + field.getKey(), changes, unmapped);
        }
    }
}
