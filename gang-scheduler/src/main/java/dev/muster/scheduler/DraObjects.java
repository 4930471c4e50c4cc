package dev.muster.scheduler;

import dev.muster.scheduler.core.dra.Device;
import dev.muster.scheduler.core.dra.DeviceAllocation;
import dev.muster.scheduler.core.dra.DeviceClaim;
import dev.muster.scheduler.core.dra.DeviceClass;
import dev.muster.scheduler.core.dra.DeviceConfig;
import dev.muster.scheduler.core.dra.DeviceConstraint;
import dev.muster.scheduler.core.dra.DeviceRequest;
import dev.muster.scheduler.core.dra.DeviceSlice;
import dev.muster.scheduler.core.dra.DeviceTaint;
import dev.muster.scheduler.core.dra.DeviceTaintRule;
import dev.muster.scheduler.core.dra.DeviceToleration;
import dev.muster.scheduler.core.model.NodeSelectorRequirement;
import dev.muster.scheduler.core.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code resource.k8s.io/v1} objects read into the core's plain records. fabric8 7.4 has no model of the v1
 * DRA API (only of v1alpha3/v1beta1, whose fields differ), so they are read as
 * {@link GenericKubernetesResource} maps here, in one place, and written back as maps by
 * {@link BindingClient}. A field that cannot be read makes the object count as absent nowhere: a malformed
 * request is read as a request no device passes.
 */
final class DraObjects {
    /** The API group and version. */
    static final String API_VERSION = "resource.k8s.io/v1";
    /** A request's or subrequest's field of consumable capacity, which Muster does not allocate. */
    private static final String CAPACITY_REQUESTS = "%s.capacity.requests (consumable capacity)";
    /** The attribute of a constraint of an unknown kind: an attribute no device carries. */
    private static final String UNKNOWN_CONSTRAINT = "(a constraint of a kind Muster does not know)";
    /** The field selector key of a node name in an allocation's node selector. */
    private static final String NODE_NAME = "metadata.name";

    private DraObjects() {
    }

    static DeviceSlice slice(GenericKubernetesResource object) {
        Map<String, Object> spec = map(object.getAdditionalProperties().get("spec"));
        String driver = string(spec.get("driver"));
        String pool = string(map(spec.get("pool")).get("name"));
        List<Device> devices = new ArrayList<>();
        for (Object item : list(spec.get("devices"))) {
            Map<String, Object> device = map(item);
            Map<String, Object> attributes = new HashMap<>();
            map(device.get("attributes")).forEach((name, value) -> {
                Object plain = attributeValue(map(value));
                if (plain != null) {
                    attributes.put(Device.qualified(driver, name), plain);
                }
            });
            Map<String, Long> capacity = new HashMap<>();
            map(device.get("capacity")).forEach((name, value) -> {
                Object amount = map(value).get("value");
                if (amount != null) {
                    try {
                        capacity.put(Device.qualified(driver, name),
                                Quantity.getAmountInBytes(new Quantity(amount.toString())).longValue());
                    } catch (IllegalArgumentException | ArithmeticException e) {
                        // Not a quantity (the API server would refuse it): the capacity is left out, so
                        // selectors on it select nothing.
                    }
                }
            });
            List<DeviceTaint> taints = new ArrayList<>();
            for (Object taint : list(device.get("taints"))) {
                Map<String, Object> fields = map(taint);
                String key = string(fields.get("key"));
                if (key != null) {
                    taints.add(new DeviceTaint(key, string(fields.get("value")), string(fields.get("effect"))));
                }
            }
            devices.add(new Device(driver, pool, string(device.get("name")), attributes, capacity, taints,
                    !list(device.get("consumesCounters")).isEmpty(),
                    Boolean.TRUE.equals(device.get("allowMultipleAllocations")),
                    !list(device.get("bindingConditions")).isEmpty()));
        }
        return new DeviceSlice(object.getMetadata().getName(), driver, pool, string(spec.get("nodeName")),
                Boolean.TRUE.equals(spec.get("allNodes")), nodeTerms(map(spec.get("nodeSelector"))), devices,
                perDeviceNodeSelection(object));
    }

    /** Whether the slice sets {@code spec.perDeviceNodeSelection: true}: each of its devices names its node. */
    static boolean perDeviceNodeSelection(GenericKubernetesResource slice) {
        return Boolean.TRUE.equals(map(slice.getAdditionalProperties().get("spec")).get("perDeviceNodeSelection"));
    }

    static DeviceClass deviceClass(GenericKubernetesResource object) {
        Map<String, Object> spec = map(object.getAdditionalProperties().get("spec"));
        return new DeviceClass(object.getMetadata().getName(), selectors(spec.get("selectors")), config(spec.get("config")));
    }

    /**
     * A DeviceTaintRule of any served version: {@code v1alpha3} of Kubernetes 1.34 has the selector's
     * {@code deviceClassName} and {@code selectors}, later versions only driver, pool and device, read alike.
     */
    static DeviceTaintRule taintRule(GenericKubernetesResource object) {
        Map<String, Object> spec = map(object.getAdditionalProperties().get("spec"));
        Map<String, Object> taint = map(spec.get("taint"));
        Map<String, Object> selector = map(spec.get("deviceSelector"));
        return new DeviceTaintRule(object.getMetadata().getName(), string(selector.get("driver")),
                string(selector.get("pool")), string(selector.get("device")), string(selector.get("deviceClassName")),
                selectors(selector.get("selectors")),
                new DeviceTaint(Objects.requireNonNullElse(string(taint.get("key")), ""), string(taint.get("value")),
                        string(taint.get("effect"))));
    }

    static DeviceClaim claim(GenericKubernetesResource object) {
        Map<String, Object> status = map(object.getAdditionalProperties().get("status"));
        List<String> reservedFor = new ArrayList<>();
        for (Object consumer : list(status.get("reservedFor"))) {
            reservedFor.add(string(map(consumer).get("name")));
        }
        return claim(object.getMetadata().getNamespace(), object.getMetadata().getName(),
                map(object.getAdditionalProperties().get("spec")), allocation(map(status.get("allocation"))), reservedFor);
    }

    /** The claim a template gives a pod: the template's {@code spec.spec} under the name given. */
    static DeviceClaim fromTemplate(GenericKubernetesResource template, String namespace, String name) {
        Map<String, Object> spec = map(template.getAdditionalProperties().get("spec"));
        return claim(namespace, name, map(spec.get("spec")), null, List.of());
    }

    private static DeviceClaim claim(String namespace, String name, Map<String, Object> spec,
                                     DeviceAllocation allocation, List<String> reservedFor) {
        Map<String, Object> devices = map(spec.get("devices"));
        List<DeviceRequest> requests = new ArrayList<>();
        for (Object item : list(devices.get("requests"))) {
            Map<String, Object> request = map(item);
            String requestName = string(request.get("name"));
            Map<String, Object> exactly = map(request.get("exactly"));
            List<DeviceRequest.Alternative> alternatives = new ArrayList<>();
            List<String> refused = new ArrayList<>();
            if (Boolean.TRUE.equals(exactly.get("adminAccess"))) {
                refused.add(DeviceRequest.ADMIN_ACCESS);
            }
            if (!exactly.isEmpty()) {
                alternatives.add(alternative(null, exactly));
                if (asksForCapacity(exactly)) {
                    refused.add(CAPACITY_REQUESTS.formatted("exactly"));
                }
            }
            for (Object sub : list(request.get("firstAvailable"))) {
                String subName = string(map(sub).get("name"));
                alternatives.add(alternative(subName, map(sub)));
                if (asksForCapacity(map(sub))) {
                    refused.add(CAPACITY_REQUESTS.formatted("firstAvailable[" + subName + "]"));
                }
            }
            if (alternatives.isEmpty()) {
                // Neither field: a request the API server would refuse; read as one nothing satisfies.
                alternatives.add(new DeviceRequest.Alternative(null, "", List.of("false"), false, 1));
            }
            requests.add(new DeviceRequest(requestName == null ? "" : requestName, alternatives, refused));
        }
        List<DeviceConstraint> constraints = new ArrayList<>();
        for (Object item : list(devices.get("constraints"))) {
            Map<String, Object> constraint = map(item);
            List<String> covered = list(constraint.get("requests")).stream().map(String::valueOf).toList();
            String match = string(constraint.get("matchAttribute"));
            String distinct = string(constraint.get("distinctAttribute"));
            if (match != null) {
                constraints.add(new DeviceConstraint(covered, match, false));
            } else if (distinct != null) {
                constraints.add(new DeviceConstraint(covered, distinct, true));
            } else {
                // A kind of constraint this version does not know (the API server would refuse an empty one): a
                // constraint no device satisfies, so that the claim is not allocated as if it were unconstrained.
                constraints.add(new DeviceConstraint(covered, UNKNOWN_CONSTRAINT, false));
            }
        }
        return new DeviceClaim(namespace, name, requests, constraints, allocation, reservedFor, config(devices.get("config")));
    }

    private static DeviceRequest.Alternative alternative(String subrequest, Map<String, Object> fields) {
        boolean all = "All".equals(fields.get("allocationMode"));
        int count = fields.get("count") instanceof Number number ? number.intValue() : 1;
        String className = string(fields.get("deviceClassName"));
        return new DeviceRequest.Alternative(subrequest, className == null ? "" : className,
                selectors(fields.get("selectors")), all, Math.max(count, 1), tolerations(fields.get("tolerations")));
    }

    /**
     * {@code config} entries of a class, a claim or an allocation: {@code source} and {@code requests} read, the
     * rest (the driver's {@code opaque} parameters) kept as given.
     */
    private static List<DeviceConfig> config(Object value) {
        List<DeviceConfig> config = new ArrayList<>();
        for (Object item : list(value)) {
            Map<String, Object> parameters = new LinkedHashMap<>(map(item));
            Object source = parameters.remove("source");
            List<String> requests = list(parameters.remove("requests")).stream().map(String::valueOf).toList();
            config.add(new DeviceConfig(string(source), requests, parameters));
        }
        return config;
    }

    private static Map<String, Object> configStatus(DeviceConfig entry) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("source", entry.source());
        if (!entry.requests().isEmpty()) {
            fields.put("requests", entry.requests());
        }
        fields.putAll(entry.parameters());
        return fields;
    }

    /** Whether a request or subrequest sets {@code capacity.requests} (consumable capacity). */
    private static boolean asksForCapacity(Map<String, Object> fields) {
        return !map(map(fields.get("capacity")).get("requests")).isEmpty();
    }

    private static List<DeviceToleration> tolerations(Object value) {
        List<DeviceToleration> tolerations = new ArrayList<>();
        for (Object item : list(value)) {
            Map<String, Object> fields = map(item);
            tolerations.add(new DeviceToleration(string(fields.get("key")), string(fields.get("operator")),
                    string(fields.get("value")), string(fields.get("effect")),
                    fields.get("tolerationSeconds") instanceof Number seconds ? seconds.longValue() : null));
        }
        return tolerations;
    }

    /** A toleration as {@code tolerations[]} of an allocation result, as the claim's request gave it. */
    private static Map<String, Object> tolerationStatus(DeviceToleration toleration) {
        Map<String, Object> fields = new LinkedHashMap<>();
        if (!toleration.key().isEmpty()) {
            fields.put("key", toleration.key());
        }
        fields.put("operator", toleration.operator());
        if (!toleration.value().isEmpty()) {
            fields.put("value", toleration.value());
        }
        if (!toleration.effect().isEmpty()) {
            fields.put("effect", toleration.effect());
        }
        if (toleration.tolerationSeconds() != null) {
            fields.put("tolerationSeconds", toleration.tolerationSeconds());
        }
        return fields;
    }

    private static List<String> selectors(Object value) {
        List<String> selectors = new ArrayList<>();
        for (Object selector : list(value)) {
            Object expression = map(map(selector).get("cel")).get("expression");
            if (expression != null) {
                selectors.add(expression.toString());
            }
        }
        return selectors;
    }

    private static DeviceAllocation allocation(Map<String, Object> allocation) {
        if (allocation.isEmpty()) {
            return null;
        }
        List<DeviceAllocation.AllocatedDevice> devices = new ArrayList<>();
        for (Object item : list(map(allocation.get("devices")).get("results"))) {
            Map<String, Object> result = map(item);
            devices.add(new DeviceAllocation.AllocatedDevice(string(result.get("request")), string(result.get("driver")),
                    string(result.get("pool")), string(result.get("device")), tolerations(result.get("tolerations"))));
        }
        String nodeName = null;
        for (NodeSelectorTerm term : nodeTerms(map(allocation.get("nodeSelector")))) {
            for (NodeSelectorRequirement field : term.matchFields()) {
                if (NODE_NAME.equals(field.key()) && field.values().size() == 1) {
                    nodeName = field.values().iterator().next();
                }
            }
        }
        return new DeviceAllocation(devices, nodeName, config(map(allocation.get("devices")).get("config")));
    }

    /** An allocation as {@code status.allocation}: its results and, for devices on a node, that node. */
    static Map<String, Object> allocationStatus(DeviceAllocation allocation) {
        List<Map<String, Object>> results = new ArrayList<>();
        for (DeviceAllocation.AllocatedDevice device : allocation.devices()) {
            Map<String, Object> result = new LinkedHashMap<>(Map.of("request", device.request(), "driver",
                    device.driver(), "pool", device.pool(), "device", device.device()));
            if (!device.tolerations().isEmpty()) {
                result.put("tolerations", device.tolerations().stream().map(DraObjects::tolerationStatus).toList());
            }
            results.add(result);
        }
        Map<String, Object> devices = new LinkedHashMap<>();
        devices.put("results", results);
        if (!allocation.config().isEmpty()) {
            devices.put("config", allocation.config().stream().map(DraObjects::configStatus).toList());
        }
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("devices", devices);
        if (allocation.nodeName() != null) {
            status.put("nodeSelector", Map.of("nodeSelectorTerms", List.of(Map.of("matchFields", List.of(Map.of(
                    "key", NODE_NAME, "operator", "In", "values", List.of(allocation.nodeName())))))));
        }
        return status;
    }

    /**
     * The pod's claims as {@code namespace/name}, in {@code spec.resourceClaims} order: a named claim's
     * name, a template's claim as {@code status.resourceClaimStatuses} names it; a template claim not
     * created yet is named by {@link #pendingClaimKey}, which no claim has.
     */
    static List<String> claimKeys(Pod pod) {
        List<PodResourceClaim> claims = pod.getSpec().getResourceClaims();
        if (claims == null || claims.isEmpty()) {
            return List.of();
        }
        Map<String, String> generated = new HashMap<>();
        if (pod.getStatus() != null && pod.getStatus().getResourceClaimStatuses() != null) {
            for (PodResourceClaimStatus status : pod.getStatus().getResourceClaimStatuses()) {
                if (status.getResourceClaimName() != null) {
                    generated.put(status.getName(), status.getResourceClaimName());
                }
            }
        }
        String namespace = pod.getMetadata().getNamespace();
        List<String> keys = new ArrayList<>(claims.size());
        for (PodResourceClaim claim : claims) {
            String name = claim.getResourceClaimName() != null ? claim.getResourceClaimName()
                    : generated.get(claim.getName());
            keys.add(name != null ? namespace + "/" + name : pendingClaimKey(namespace, pod.getMetadata().getName(),
                    claim.getName(), claim.getResourceClaimTemplateName()));
        }
        return keys;
    }

    /** The templates the pod's claims are made from, as {@code namespace/name}, one per claim made from one. */
    static List<String> templateKeys(Pod pod) {
        List<PodResourceClaim> claims = pod.getSpec().getResourceClaims();
        if (claims == null) {
            return List.of();
        }
        return claims.stream().filter(claim -> claim.getResourceClaimName() == null
                        && claim.getResourceClaimTemplateName() != null)
                .map(claim -> pod.getMetadata().getNamespace() + "/" + claim.getResourceClaimTemplateName()).toList();
    }

    /** The templates named in {@link #pendingClaimKey}s among the keys, as {@code namespace/name}. */
    static List<String> templateKeys(List<String> claimKeys) {
        List<String> templates = new ArrayList<>();
        for (String key : claimKeys) {
            String[] parts = key.split("/");
            if (parts.length == 4) {
                templates.add(parts[0] + "/" + parts[3]);
            }
        }
        return templates;
    }

    /**
     * The key of the claim a template will give a pod, before it exists: {@code namespace/pod/claim/template},
     * not a valid object name, so it names no existing claim; admission counts the template's claim under it.
     */
    static String pendingClaimKey(String namespace, String podName, String claimName, String templateName) {
        return DeviceClaim.pendingKey(namespace, podName, claimName, templateName);
    }

    /**
     * The claim the template named in a {@link #pendingClaimKey} makes, under that key, or {@code null} if
     * the key is not one or the template does not exist.
     */
    static DeviceClaim pendingClaim(String key, dev.muster.scheduler.core.dra.DeviceCatalog catalog) {
        String[] parts = key.split("/");
        if (parts.length != 4) {
            return null;
        }
        return catalog.fromTemplate(parts[0] + "/" + parts[3], parts[0], key.substring(parts[0].length() + 1));
    }

    /** A ResourceClaimTemplate as the claim it makes, under the template's own name. */
    static DeviceClaim template(GenericKubernetesResource object) {
        return fromTemplate(object, object.getMetadata().getNamespace(), object.getMetadata().getName());
    }

    private static List<NodeSelectorTerm> nodeTerms(Map<String, Object> selector) {
        List<NodeSelectorTerm> terms = new ArrayList<>();
        for (Object item : list(selector.get("nodeSelectorTerms"))) {
            Map<String, Object> term = map(item);
            terms.add(new NodeSelectorTerm(requirements(term.get("matchExpressions")),
                    requirements(term.get("matchFields"))));
        }
        return terms;
    }

    private static List<NodeSelectorRequirement> requirements(Object value) {
        List<NodeSelectorRequirement> requirements = new ArrayList<>();
        for (Object item : list(value)) {
            Map<String, Object> requirement = map(item);
            NodeSelectorRequirement.Operator operator;
            try {
                operator = NodeSelectorRequirement.Operator.valueOf(String.valueOf(requirement.get("operator")));
            } catch (IllegalArgumentException e) {
                // An operator the API server would refuse: a requirement no node meets.
                operator = NodeSelectorRequirement.Operator.In;
                requirement = Map.of();
            }
            requirements.add(new NodeSelectorRequirement(String.valueOf(requirement.getOrDefault("key", "")), operator,
                    list(requirement.get("values")).stream().map(String::valueOf).toList()));
        }
        return requirements;
    }

    private static Object attributeValue(Map<String, Object> value) {
        if (value.get("int") instanceof Number number) {
            return number.longValue();
        }
        if (value.get("bool") instanceof Boolean bool) {
            return bool;
        }
        Object text = value.get("string") != null ? value.get("string") : value.get("version");
        return text == null ? null : text.toString();
    }

    /** A field of a {@link GenericKubernetesResource} read as a map; empty when it is absent or not a map. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }

    /** A field read as a list, copied; empty when it is absent or not a list. */
    static List<Object> list(Object value) {
        return value instanceof List<?> list ? new ArrayList<>(list) : List.of();
    }

    private static String string(Object value) {
        return value == null ? null : value.toString();
    }
}
