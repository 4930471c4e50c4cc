package dev.muster.cli.convert;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.rendering.JobPodRenderer;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.scheduler.core.dra.DeviceInventory;
import io.fabric8.kubernetes.api.model.HasMetadata;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites Volcano manifests as Muster's: {@code batch.volcano.sh} Jobs, {@code scheduling.volcano.sh}
 * Queues and PodGroups, and the pod specs of any other kind that name Volcano's scheduler. Documents of other
 * kinds pass through unchanged. Every change is recorded, and every field that cannot be carried is removed
 * and recorded with the reason, so nothing changes meaning without a word.
 */
public final class VolcanoConverter {
    /** The scheduler name Volcano's pods carry. */
    static final String VOLCANO_SCHEDULER = "volcano";
    /** Volcano names the top of its queue tree; Muster's tree has no object for it. */
    static final String VOLCANO_ROOT_QUEUE = "root";
    static final String HIERARCHY = "volcano.sh/hierarchy";
    static final String HIERARCHY_WEIGHTS = "volcano.sh/hierarchy-weights";
    /** Fields the API server sets; a manifest exported from a cluster carries them, a new object must not. */
    private static final List<String> SERVER_SET = List.of("uid", "resourceVersion", "creationTimestamp", "generation",
            "managedFields", "selfLink", "deletionTimestamp", "deletionGracePeriodSeconds");
    /** Volcano's capacity plugin's prefix of a DRA device-count quota in a Queue. */
    private static final String VOLCANO_DEVICE_CLASS = "deviceclass/";
    private static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";
    /** A YAML manifest's top-level apiVersion and kind, read as text: see {@link #stringManifests}. */
    private static final Pattern MANIFEST_API_VERSION = Pattern.compile("(?m)^apiVersion:[ \\t]*[\"']?([\\w.-]+/[\\w.-]+)");
    private static final Pattern MANIFEST_KIND = Pattern.compile("(?m)^kind:[ \\t]*[\"']?(\\w+)");
    /** Volcano's kinds that Muster has, by Volcano's group and kind. */
    private static final Map<String, Class<? extends HasMetadata>> MUSTER_KINDS = Map.of(
            "batch.volcano.sh/Job", Job.class, "scheduling.volcano.sh/Queue", Queue.class,
            "scheduling.volcano.sh/PodGroup", PodGroup.class);

    private final Set<String> plugins;

    /** @param plugins the names Muster's {@code spec.plugins} accepts */
    public VolcanoConverter(Set<String> plugins) {
        this.plugins = Set.copyOf(plugins);
    }

    /** A document read from {@code file}, the {@code index}-th (1-based) of it. */
    public record Source(String file, int index, ObjectNode document) {
    }

    /**
     * Converts every document; parent queues that Volcano's hierarchy annotations name but no document
     * defines are added after the queue that first names them.
     */
    public List<Conversion> convert(List<Source> sources) {
        Set<String> definedQueues = new HashSet<>();
        for (Source source : sources) {
            if (isVolcano(source.document(), "scheduling.volcano.sh/", "Queue")) {
                definedQueues.add(source.document().path("metadata").path("name").asText());
            }
        }
        List<Conversion> out = new ArrayList<>();
        Map<String, ObjectNode> addedParents = new LinkedHashMap<>();
        for (Source source : sources) {
            ObjectNode doc = source.document().deepCopy();
            String where = source.file() + ": document " + source.index() + ": " + doc.path("kind").asText("?") + " "
                    + label(doc);
            Conversion conversion = new Conversion(where, doc);
            if (isVolcano(doc, "batch.volcano.sh/", "Job")) {
                job(doc, conversion);
            } else if (isVolcano(doc, "scheduling.volcano.sh/", "Queue")) {
                List<ObjectNode> parents = queue(doc, conversion, definedQueues, addedParents);
                out.add(conversion);
                for (ObjectNode parent : parents) {
                    Conversion added = new Conversion(where + " (its parent " + name(parent) + ")", parent);
                    added.changed("added: Queue " + name(parent) + ", named by " + HIERARCHY + " but defined in no document");
                    out.add(added);
                }
                continue;
            } else if (isVolcano(doc, "scheduling.volcano.sh/", "PodGroup")) {
                podGroup(doc, conversion);
            } else if (doc.path("apiVersion").asText().contains("volcano.sh/")) {
                conversion.lost(doc.path("apiVersion").asText() + " " + doc.path("kind").asText()
                        + ": Muster has no such kind; not converted (for a bus.volcano.sh Command use ./muster suspend|resume|delete job)");
                conversion.drop();
            } else {
                podSpecs(doc, conversion);
                stringManifests(doc, conversion);
            }
            if (conversion.result() != null) {
                labels(doc, conversion);
            }
            out.add(conversion);
        }
        return out;
    }

    private void job(ObjectNode doc, Conversion c) {
        c.changed("apiVersion: " + doc.path("apiVersion").asText() + " -> " + Job.API_VERSION);
        doc.put("apiVersion", Job.API_VERSION);
        serverFields(doc, c);
        ObjectNode spec = objectAt(doc, "spec");
        String scheduler = spec.path("schedulerName").asText("");
        if (scheduler.equals(VOLCANO_SCHEDULER)) {
            spec.remove("schedulerName");
            c.changed("spec.schedulerName: volcano removed (Muster's gang scheduler is a Job's default)");
        } else if (!scheduler.isEmpty() && !scheduler.equals(MusterLabels.SCHEDULER_NAME)) {
            c.lost("spec.schedulerName: " + scheduler + " kept: the job's pods wait for that scheduler, not Muster's");
        }
        if (spec.get("plugins") instanceof ObjectNode declared) {
            List<String> names = new ArrayList<>();
            declared.fieldNames().forEachRemaining(names::add);
            for (String plugin : names) {
                if (!plugins.contains(plugin)) {
                    declared.remove(plugin);
                    c.lost("spec.plugins." + plugin + ": Muster has no " + plugin + " plugin (it has "
                            + String.join(", ", new TreeSet<>(plugins)) + "); removed");
                }
            }
        }
        if (spec.get("tasks") instanceof ArrayNode tasks) {
            for (int i = 0; i < tasks.size(); i++) {
                if (tasks.get(i).path("template") instanceof ObjectNode template) {
                    String path = "spec.tasks[" + i + "].template";
                    if (template.path("spec").path("schedulerName").asText("").equals(VOLCANO_SCHEDULER)) {
                        ((ObjectNode) template.get("spec")).remove("schedulerName");
                        c.changed(path + ".spec.schedulerName: volcano removed (the task's pods take the job's scheduler)");
                    }
                    if (template.path("spec").path("restartPolicy").asText("").isEmpty()) {
                        c.changed(path + ".spec.restartPolicy: unset: Volcano's pods then restart whenever they exit "
                                + "(Kubernetes' default, Always), Muster's only on failure (" + JobPodRenderer.DEFAULT_RESTART_POLICY
                                + "); set Always to keep Volcano's");
                    }
                    podTemplate(template, path, c);
                }
            }
        }
        fit(doc, Job.class, c);
    }

    private List<ObjectNode> queue(ObjectNode doc, Conversion c, Set<String> defined, Map<String, ObjectNode> added) {
        String name = name(doc);
        if (name.equals(VOLCANO_ROOT_QUEUE)) {
            c.lost("Queue root: Volcano's root queue has no Muster object (Muster's top-level queues are the cluster's "
                    + "children); not converted, its children get no parent");
            c.drop();
            return List.of();
        }
        c.changed("apiVersion: " + doc.path("apiVersion").asText() + " -> " + Queue.API_VERSION);
        doc.put("apiVersion", Queue.API_VERSION);
        serverFields(doc, c);
        ObjectNode spec = objectAt(doc, "spec");
        move(spec, "capability", "limit", c);
        if (spec.path("guarantee").get("resource") instanceof ObjectNode resource) {
            spec.set("guarantee", resource);
            c.changed("spec.guarantee.resource -> spec.guarantee");
        }
        deviceClassKeys(spec, "limit", c);
        deviceClassKeys(spec, "guarantee", c);
        if (spec.has("deserved")) {
            spec.remove("deserved");
            c.lost("spec.deserved: Muster computes a queue's fair share from weights, demands, guarantees and limits; "
                    + "set weights in the proportion of the deserved amounts (and a guarantee for what must not be reclaimed)");
        }
        if (spec.has("reclaimable")) {
            boolean reclaimable = spec.remove("reclaimable").asBoolean(true);
            if (reclaimable) {
                c.changed("spec.reclaimable: true removed (in Muster every queue above its fair share can be reclaimed from)");
            } else {
                c.lost("spec.reclaimable: false: Muster has no such switch; a queue always keeps its fair share and its "
                        + "guarantee, so set a guarantee for what it must never lose");
            }
        }
        if (spec.path("weight").isNumber() && spec.path("weight").asInt() < 1) {
            c.changed("spec.weight: " + spec.path("weight").asText() + " -> 1 (Muster's weights start at 1)");
            spec.put("weight", 1);
        }
        if (spec.path("parent").asText("").equals(VOLCANO_ROOT_QUEUE)) {
            spec.remove("parent");
            c.changed("spec.parent: root removed (a Muster queue without a parent is a child of the cluster)");
        }
        List<ObjectNode> parents = hierarchy(doc, spec, c, defined, added);
        String state = doc.path("status").path("state").asText("");
        if (state.equals("Closed")) {
            spec.put("state", "Closed");
            c.changed("status.state: Closed -> spec.state: Closed");
        }
        fit(doc, Queue.class, c);
        return parents;
    }

    /**
     * {@code volcano.sh/hierarchy: root/eng/prod} with weights {@code 1/2/8}: the queue becomes a child of a
     * queue {@code eng} of weight 2, with weight 8. The path's segments are places in Volcano's tree, not queue
     * names (Volcano's own example names the leaf {@code root-eng-prod}), so each inner place becomes a queue
     * named by its path below root joined with '-' ({@code eng}, {@code eng-prod}), unless a document defines it.
     */
    private List<ObjectNode> hierarchy(ObjectNode doc, ObjectNode spec, Conversion c, Set<String> defined,
                                       Map<String, ObjectNode> added) {
        ObjectNode annotations = doc.path("metadata").get("annotations") instanceof ObjectNode a ? a : null;
        if (annotations == null || !annotations.has(HIERARCHY)) {
            return List.of();
        }
        String[] path = annotations.remove(HIERARCHY).asText().split("/");
        String[] weights = annotations.has(HIERARCHY_WEIGHTS) ? annotations.remove(HIERARCHY_WEIGHTS).asText().split("/") : new String[0];
        if (annotations.isEmpty()) {
            ((ObjectNode) doc.get("metadata")).remove("annotations");
        }
        if (weights.length > 0 && weights.length != path.length) {
            c.lost(HIERARCHY_WEIGHTS + ": " + weights.length + " weights for the " + path.length
                    + " levels of " + HIERARCHY + "; weights not carried");
            weights = new String[0];
        }
        int first = path.length > 0 && path[0].equals(VOLCANO_ROOT_QUEUE) ? 1 : 0;
        List<ObjectNode> parents = new ArrayList<>();
        String parent = null;
        for (int level = first; level < path.length; level++) {
            Integer weight = weights.length > 0 ? weight(weights[level], c) : null;
            if (level == path.length - 1) {
                setParent(spec, parent);
                if (weight != null) {
                    spec.put("weight", weight);
                }
                c.changed("metadata.annotations." + HIERARCHY + (weights.length > 0 ? " and " + HIERARCHY_WEIGHTS : "")
                        + " -> spec.parent: " + (parent == null ? "(none)" : parent)
                        + (weight == null ? "" : ", spec.weight: " + weight));
                break;
            }
            String place = String.join("-", Arrays.copyOfRange(path, first, level + 1));
            ObjectNode known = added.get(place);
            if (known != null && weight != null && known.path("spec").path("weight").asInt(weight) != weight) {
                c.lost(HIERARCHY_WEIGHTS + ": weight " + weight + " for " + place + " differs from the "
                        + known.path("spec").path("weight").asInt() + " another queue gave it; the first kept");
            }
            if (!defined.contains(place) && known == null) {
                ObjectNode queue = JsonNodeFactory.instance.objectNode();
                queue.put("apiVersion", Queue.API_VERSION).put("kind", Queue.KIND);
                queue.putObject("metadata").put("name", place);
                ObjectNode parentSpec = queue.putObject("spec");
                setParent(parentSpec, parent);
                if (weight != null) {
                    parentSpec.put("weight", weight);
                }
                added.put(place, queue);
                parents.add(queue);
            }
            parent = place;
        }
        return parents;
    }

    private static void setParent(ObjectNode spec, String parent) {
        if (parent == null) {
            spec.remove("parent");
        } else {
            spec.put("parent", parent);
        }
    }

    private static Integer weight(String text, Conversion c) {
        try {
            return Math.max(1, Integer.parseInt(text.trim()));
        } catch (NumberFormatException e) {
            c.lost(HIERARCHY_WEIGHTS + ": '" + text + "' is not a whole number; that level's weight not carried");
            return null;
        }
    }

    private void podGroup(ObjectNode doc, Conversion c) {
        c.changed("apiVersion: " + doc.path("apiVersion").asText() + " -> " + PodGroup.API_VERSION);
        doc.put("apiVersion", PodGroup.API_VERSION);
        serverFields(doc, c);
        fit(doc, PodGroup.class, c);
    }

    /**
     * Pod specs at any depth of another kind (Pod, Deployment, RayCluster ...): their scheduler. The
     * {@code scheduling.k8s.io/group-name} annotation needs no change: Muster reads it as Volcano does.
     */
    private static void podSpecs(JsonNode doc, Conversion c) {
        walk(doc, "", (object, path) -> {
            if (object.get("spec") instanceof ObjectNode spec && spec.has("containers")) {
                podTemplate(object, path, c);
            }
        });
    }

    /** Calls {@code visit} on every object in the tree under {@code node}, with its path, parents first. */
    private static void walk(JsonNode node, String path, BiConsumer<ObjectNode, String> visit) {
        if (node instanceof ObjectNode object) {
            visit.accept(object, path);
            for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                walk(field.getValue(), path.isEmpty() ? field.getKey() : path + "." + field.getKey(), visit);
            }
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                walk(array.get(i), path + "[" + i + "]", visit);
            }
        }
    }

    /**
     * Argo's resource templates (in a Workflow, WorkflowTemplate, CronWorkflow ...) hold the object they create
     * as a string, {@code resource.manifest}, as Volcano's Argo examples do for a vcjob. The string is said, not
     * rewritten: Argo fills in its {@code {{...}}} parameters before the string is YAML (Volcano's MPI example
     * has an unquoted {@code name: {{workflow.parameters.job-name}}}, a YAML mapping rather than a name), and
     * rewriting it would drop its comments. Its top-level {@code apiVersion} and {@code kind} lines are read as
     * text for the same reason.
     */
    private static void stringManifests(JsonNode doc, Conversion c) {
        walk(doc, "", (object, path) -> {
            if (object.path("resource").path("manifest").isTextual()) {
                String template = object.path("name").isTextual() ? " (template " + object.path("name").asText() + ")" : "";
                stringManifest((path.isEmpty() ? "" : path + ".") + "resource.manifest" + template,
                        object.path("resource").path("manifest").asText(), c);
            }
        });
    }

    private static void stringManifest(String at, String manifest, Conversion c) {
        Matcher apiVersion = MANIFEST_API_VERSION.matcher(manifest);
        if (!apiVersion.find() || !apiVersion.group(1).contains("volcano.sh/")) {
            return;
        }
        Matcher kindLine = MANIFEST_KIND.matcher(manifest);
        String kind = kindLine.find() ? kindLine.group(1) : "object";
        String said = at + ": holds a Volcano " + kind + " (" + apiVersion.group(1) + ") as a string, which convert does "
                + "not rewrite; convert that manifest on its own (./muster convert) and put the result in its place";
        Class<? extends HasMetadata> muster = MUSTER_KINDS.get(apiVersion.group(1).split("/")[0] + "/" + kind);
        if (muster != null) {
            said += ", and let the workflow's service account create " + HasMetadata.getFullResourceName(muster);
        }
        if (muster == Job.class) {
            said += " (a Muster Job's status.state.phase takes Volcano's values, so conditions on it hold)";
        }
        c.lost(said);
    }

    /** A pod template or a pod ({@code metadata} and {@code spec}) at {@code path}. */
    private static void podTemplate(ObjectNode template, String path, Conversion c) {
        String at = path.isEmpty() ? "" : path + ".";
        if (template.path("spec").path("schedulerName").asText("").equals(VOLCANO_SCHEDULER)) {
            ((ObjectNode) template.get("spec")).put("schedulerName", MusterLabels.SCHEDULER_NAME);
            c.changed(at + "spec.schedulerName: volcano -> " + MusterLabels.SCHEDULER_NAME);
        }
    }

    /** Selectors on Volcano's pod labels, anywhere in the document, and a Service's selector. */
    private static void labels(ObjectNode doc, Conversion c) {
        List<String> changes = new ArrayList<>();
        List<String> lost = new ArrayList<>();
        VolcanoLabels.rewrite(doc, "", changes, lost);
        if (doc.path("apiVersion").asText().equals("v1") && doc.path("kind").asText().equals("Service")
                && doc.path("spec").get("selector") instanceof ObjectNode selector) {
            VolcanoLabels.renameKeys(selector, "spec.selector", changes, lost);
        }
        changes.forEach(c::changed);
        lost.forEach(c::lost);
    }

    /** Drops what the schema of the Muster kind lacks, each field said. */
    private static void fit(ObjectNode doc, Class<? extends HasMetadata> kind, Conversion c) {
        if (doc.remove("status") != null) {
            c.changed("status removed (Muster's controllers write it)");
        }
        for (String path : MusterSchemas.prune(doc, kind)) {
            c.lost(path + ": Muster's " + kind.getSimpleName() + " has no such field; removed");
        }
    }

    private static void serverFields(ObjectNode doc, Conversion c) {
        if (!(doc.get("metadata") instanceof ObjectNode metadata)) {
            return;
        }
        for (String field : SERVER_SET) {
            if (metadata.remove(field) != null) {
                c.changed("metadata." + field + " removed (set by the API server)");
            }
        }
        if (metadata.get("annotations") instanceof ObjectNode annotations && annotations.remove(LAST_APPLIED) != null) {
            c.changed("metadata.annotations." + LAST_APPLIED + " removed (kubectl's record of the Volcano object)");
            if (annotations.isEmpty()) {
                metadata.remove("annotations");
            }
        }
    }

    /**
     * Volcano's capacity plugin reads a queue's {@code deviceclass/<class>} as a count of DRA devices of that class
     * and {@code <dimension>.deviceclass/<class>} as a capacity of them; Muster counts a class's devices as
     * {@code deviceclass.resource.kubernetes.io/<class>} and has no capacity quota, so the first is renamed and the
     * second said not carried (left as it is, either would be a key nothing reads).
     */
    private static void deviceClassKeys(ObjectNode spec, String field, Conversion c) {
        if (!(spec.get(field) instanceof ObjectNode amounts)) {
            return;
        }
        List<String> keys = new ArrayList<>();
        amounts.fieldNames().forEachRemaining(keys::add);
        for (String key : keys) {
            if (key.startsWith(VOLCANO_DEVICE_CLASS)) {
                String renamed = DeviceInventory.RESOURCE_PREFIX + key.substring(VOLCANO_DEVICE_CLASS.length());
                amounts.set(renamed, amounts.remove(key));
                c.changed("spec." + field + "." + key + " -> spec." + field + "." + renamed);
            } else if (key.contains("." + VOLCANO_DEVICE_CLASS)) {
                amounts.remove(key);
                c.lost("spec." + field + "." + key + ": a quota on a capacity of DRA devices, which Muster's queues do "
                        + "not have (they count devices: " + DeviceInventory.RESOURCE_PREFIX + "<class>); removed");
            }
        }
    }

    private static void move(ObjectNode spec, String from, String to, Conversion c) {
        if (spec.has(from)) {
            spec.set(to, spec.remove(from));
            c.changed("spec." + from + " -> spec." + to);
        }
    }

    private static boolean isVolcano(JsonNode doc, String groupPrefix, String kind) {
        return doc.path("apiVersion").asText().startsWith(groupPrefix) && doc.path("kind").asText().equals(kind);
    }

    /** The name, or for an object the API server will name (Argo's examples), its prefix: {@code step-job-*}. */
    private static String label(JsonNode doc) {
        String generateName = doc.path("metadata").path("generateName").asText("");
        return doc.path("metadata").path("name").asText("").isEmpty() && !generateName.isEmpty()
                ? name(doc) + generateName + "*" : name(doc);
    }

    private static String name(JsonNode doc) {
        JsonNode metadata = doc.path("metadata");
        String namespace = metadata.path("namespace").asText("");
        return (namespace.isEmpty() ? "" : namespace + "/") + metadata.path("name").asText("");
    }

    private static ObjectNode objectAt(ObjectNode parent, String field) {
        return parent.get(field) instanceof ObjectNode child ? child : parent.putObject(field);
    }
}
