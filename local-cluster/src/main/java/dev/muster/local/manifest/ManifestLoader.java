package dev.muster.local.manifest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.validation.JobValidator;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.Queue;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the files given to {@code ./muster local} and checks them all before anything is applied, so a
 * mistake in the third file does not leave the first two half-submitted. Every problem is reported with
 * its file and document number.
 */
public final class ManifestLoader {
    /** Kinds the local cluster can apply, by {@code apiVersion/kind}. */
    static final Map<String, Class<? extends HasMetadata>> KINDS = new LinkedHashMap<>();

    static {
        KINDS.put(Job.API_VERSION + "/" + Job.KIND, Job.class);
        KINDS.put(PodGroup.API_VERSION + "/" + PodGroup.KIND, PodGroup.class);
        KINDS.put(Queue.API_VERSION + "/" + Queue.KIND, Queue.class);
        KINDS.put("v1/Pod", Pod.class);
        KINDS.put("v1/Node", Node.class);
        KINDS.put("v1/Namespace", Namespace.class);
        KINDS.put("v1/ConfigMap", ConfigMap.class);
        KINDS.put("v1/Secret", Secret.class);
        KINDS.put("v1/Service", Service.class);
        KINDS.put("scheduling.k8s.io/v1/PriorityClass", PriorityClass.class);
        // DRA's kinds, which fabric8's model lacks in v1: read as generic objects.
        KINDS.put("resource.k8s.io/v1/DeviceClass", GenericKubernetesResource.class);
        KINDS.put("resource.k8s.io/v1/ResourceClaim", GenericKubernetesResource.class);
        KINDS.put("resource.k8s.io/v1/ResourceClaimTemplate", GenericKubernetesResource.class);
    }

    /** The kinds read as generic objects that are namespaced, and so get the {@code default} namespace. */
    private static final Set<String> NAMESPACED_GENERIC_KINDS =
            Set.of("resource.k8s.io/v1/ResourceClaim", "resource.k8s.io/v1/ResourceClaimTemplate");

    private static final YAMLMapper YAML = new YAMLMapper();

    private ManifestLoader() {
    }

    /**
     * Reads every document of every file (none for no files).
     *
     * @throws ManifestException listing every unreadable file, invalid document, unsupported kind,
     *                           invalid Job and duplicate object
     */
    public static List<Manifest> load(List<Path> files) throws ManifestException {
        List<String> problems = new ArrayList<>();
        List<Manifest> manifests = new ArrayList<>();
        for (Path file : files) {
            readFile(file, manifests, problems);
        }
        Set<String> seen = new HashSet<>();
        for (Manifest m : manifests) {
            // Each create of an object with only generateName makes another object, as with kubectl create.
            if (m.object().getMetadata().getName() != null && !seen.add(m.describe())) {
                problems.add(m.file() + ": document " + m.document() + ": " + m.describe() + " is defined more than once");
            }
        }
        if (!problems.isEmpty()) {
            throw new ManifestException(problems);
        }
        return manifests;
    }

    private static void readFile(Path file, List<Manifest> out, List<String> problems) {
        if (!Files.isRegularFile(file)) {
            problems.add(file + ": no such file");
            return;
        }
        int document = 0;
        try (Reader reader = Files.newBufferedReader(file);
             MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(reader)) {
            while (true) {
                document++;
                JsonNode doc;
                try {
                    if (!docs.hasNextValue()) {
                        break;
                    }
                    doc = docs.nextValue();
                } catch (JsonProcessingException e) {
                    problems.add(file + ": document " + document + ": not valid YAML: " + e.getOriginalMessage()
                            + location(e));
                    return;
                }
                if (doc == null || doc.isNull() || doc.isMissingNode() || (doc.isObject() && doc.isEmpty())) {
                    continue;
                }
                toManifest(file, document, doc, out, problems);
            }
        } catch (IOException e) {
            problems.add(file + ": " + (document > 0 ? "document " + document + ": " : "") + "cannot be read: "
                    + (e instanceof JsonProcessingException jpe ? jpe.getOriginalMessage() + location(jpe) : e.getMessage()));
        }
    }

    private static void toManifest(Path file, int document, JsonNode doc, List<Manifest> out, List<String> problems) {
        String where = file + ": document " + document + ": ";
        if (!doc.isObject()) {
            problems.add(where + "expected a Kubernetes object (a mapping with apiVersion and kind), found a "
                    + doc.getNodeType().toString().toLowerCase());
            return;
        }
        String apiVersion = doc.path("apiVersion").asText("");
        String kind = doc.path("kind").asText("");
        if (apiVersion.isEmpty() || kind.isEmpty()) {
            problems.add(where + "apiVersion and kind are required");
            return;
        }
        Class<? extends HasMetadata> type = KINDS.get(apiVersion + "/" + kind);
        if (type == null) {
            problems.add(where + "kind " + kind + " (apiVersion " + apiVersion + ") cannot be applied" + hint(apiVersion, kind));
            return;
        }
        if (doc.path("metadata").path("name").asText("").isEmpty()
                && doc.path("metadata").path("generateName").asText("").isEmpty()) {
            problems.add(where + kind + " needs metadata.name or metadata.generateName");
            return;
        }
        HasMetadata object;
        try {
            object = Serialization.jsonMapper().treeToValue(doc, type);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            problems.add(where + kind + " " + Manifest.name(doc.path("metadata").path("name").asText(null),
                    doc.path("metadata").path("generateName").asText(null)) + " does not match its schema: "
                    + (e instanceof JsonProcessingException jpe ? jpe.getOriginalMessage() : e.getMessage()));
            return;
        }
        if ((object instanceof Namespaced || NAMESPACED_GENERIC_KINDS.contains(apiVersion + "/" + kind))
                && object.getMetadata().getNamespace() == null) {
            object.getMetadata().setNamespace("default");
        }
        Manifest manifest = new Manifest(file, document, object);
        if (object instanceof Job job) {
            var errors = JobValidator.validate(job);
            if (!errors.isEmpty()) {
                problems.add(where + manifest.describe() + " is invalid: " + JobValidator.describe(errors));
                return;
            }
        }
        out.add(manifest);
    }

    private static String hint(String apiVersion, String kind) {
        if (apiVersion.startsWith("batch.volcano.sh/") && kind.equals("Job")) {
            return ": run ./muster convert on the file to rewrite it as a Muster Job (it says what it changes)";
        }
        if (apiVersion.startsWith("scheduling.") && kind.equals("PodGroup")) {
            return ": change apiVersion to " + PodGroup.API_VERSION + " (./muster convert does it for Volcano PodGroups)";
        }
        if (kind.equals("ReplicaSet") || kind.equals("Deployment") || kind.equals("StatefulSet")) {
            return ": the local cluster runs no workload controllers; give bare Pods with the label "
                    + MusterLabels.POD_GROUP + " instead";
        }
        return "; the local cluster applies " + String.join(", ", KINDS.keySet());
    }

    private static String location(JsonProcessingException e) {
        return e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
    }
}
