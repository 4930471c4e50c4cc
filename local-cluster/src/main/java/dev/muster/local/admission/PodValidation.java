package dev.muster.local.admission;

import com.fasterxml.jackson.databind.JsonNode;
import dev.muster.local.protocol.FieldError;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Part of kube-apiserver's validation of a pod on creation ({@code ValidatePodCreate} and {@code ValidatePodSpec} in
 * <a href="https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go">validation.go</a>),
 * in its words and order, on the pod as JSON after the emulator's defaults: the mistakes a pod template makes that
 * the emulator would otherwise store and "run". Volume names; containers required; container and init container
 * names (DNS-1123 labels, unique across both lists); images; ports (numbers, names, protocol); volume mounts
 * naming a volume of the pod; image pull policies; resources (non-negative, requests within limits, extended
 * resources' requests equal to their limits); the restart policy. Fields kube-apiserver defaults and the emulator
 * does not (a port's protocol, a container's pull policy) are checked only where given.
 */
public final class PodValidation {
    private static final int LABEL_MAX_LENGTH = 63;
    private static final Pattern LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern SUBDOMAIN = Pattern.compile(LABEL.pattern() + "(\\." + LABEL.pattern() + ")*");
    private static final String LABEL_MESSAGE = "a lowercase RFC 1123 label must consist of lower case alphanumeric "
            + "characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or "
            + "'123-abc', regex used for validation is '" + LABEL.pattern() + "')";
    private static final Pattern PORT_NAME_CHARACTERS = Pattern.compile("[-a-z0-9]+");
    private static final Pattern A_LETTER = Pattern.compile(".*[a-z].*");
    private static final List<String> RESTART_POLICIES = List.of("Always", "OnFailure", "Never");
    private static final List<String> PULL_POLICIES = List.of("Always", "IfNotPresent", "Never");
    private static final List<String> PROTOCOLS = List.of("SCTP", "TCP", "UDP");
    private static final List<String> CONTAINER_LISTS = List.of("containers", "initContainers");
    private static final List<String> RESOURCE_LISTS = List.of("limits", "requests");

    private PodValidation() {
    }

    /**
     * The first resource quantity of the pod that does not read as one, as kube-apiserver refuses it while decoding
     * the body (400): {@code Pod in version "v1" cannot be handled as a Pod: quantities must match ...}.
     */
    public static Optional<String> undecodable(JsonNode pod) {
        for (String list : CONTAINER_LISTS) {
            for (JsonNode container : pod.path("spec").path(list)) {
                for (String kind : RESOURCE_LISTS) {
                    for (JsonNode quantity : container.path("resources").path(kind)) {
                        Optional<String> problem = quantityProblem(quantity);
                        if (problem.isPresent()) {
                            return Optional.of("Pod in version \"v1\" cannot be handled as a Pod: " + problem.get());
                        }
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** What is wrong with the pod, in kube-apiserver's order; empty if nothing checked here is. */
    public static List<FieldError> validate(JsonNode pod) {
        JsonNode spec = pod.path("spec");
        List<FieldError> errors = new ArrayList<>();
        Set<String> volumes = volumes(spec.path("volumes"), errors);
        JsonNode containers = spec.path("containers");
        if (containers.isEmpty()) {
            errors.add(FieldError.required("spec.containers"));
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < containers.size(); i++) {
            String path = "spec.containers[" + i + "]";
            errors.addAll(container(containers.get(i), path, volumes));
            String name = containers.get(i).path("name").asText("");
            if (!names.add(name)) {
                errors.add(FieldError.duplicate(path + ".name", name));
            }
        }
        // Init containers may take no name of a container of either list; a collision is reported on the init container.
        JsonNode initContainers = spec.path("initContainers");
        for (int i = 0; i < initContainers.size(); i++) {
            String path = "spec.initContainers[" + i + "]";
            errors.addAll(container(initContainers.get(i), path, volumes));
            String name = initContainers.get(i).path("name").asText("");
            if (names.contains(name)) {
                errors.add(FieldError.duplicate(path + ".name", name));
            } else if (!name.isEmpty()) {
                names.add(name);
            }
        }
        String restartPolicy = spec.path("restartPolicy").asText("");
        if (restartPolicy.isEmpty()) {
            errors.add(FieldError.required("spec.restartPolicy"));
        } else if (!RESTART_POLICIES.contains(restartPolicy)) {
            errors.add(FieldError.notSupported("spec.restartPolicy", restartPolicy, RESTART_POLICIES));
        }
        errors.addAll(WorkloadApiValidation.podSchedulingGroup(pod, null));
        for (String list : CONTAINER_LISTS) {
            JsonNode listed = spec.path(list);
            for (int i = 0; i < listed.size(); i++) {
                String image = listed.get(i).path("image").asText("");
                if (!image.equals(image.strip())) {
                    errors.add(FieldError.invalid("spec." + list + "[" + i + "].image", image,
                            "must not have leading or trailing whitespace"));
                }
            }
        }
        return errors;
    }

    /** The names of the pod's valid volumes, the errors of the others added; an invalid volume is not there to mount. */
    private static Set<String> volumes(JsonNode volumes, List<FieldError> errors) {
        Set<String> names = new HashSet<>();
        for (int i = 0; i < volumes.size(); i++) {
            String path = "spec.volumes[" + i + "].name";
            String name = volumes.get(i).path("name").asText("");
            List<FieldError> found = new ArrayList<>(label(name, path));
            if (names.contains(name)) {
                found.add(FieldError.duplicate(path, name));
            }
            if (found.isEmpty()) {
                names.add(name);
            }
            errors.addAll(found);
        }
        return names;
    }

    private static List<FieldError> container(JsonNode container, String path, Set<String> volumes) {
        List<FieldError> errors = new ArrayList<>(label(container.path("name").asText(""), path + ".name"));
        if (container.path("image").asText("").isEmpty()) {
            errors.add(FieldError.required(path + ".image"));
        }
        errors.addAll(ports(container.path("ports"), path + ".ports"));
        JsonNode mounts = container.path("volumeMounts");
        Set<String> mountPaths = new HashSet<>();
        for (int i = 0; i < mounts.size(); i++) {
            String at = path + ".volumeMounts[" + i + "]";
            String name = mounts.get(i).path("name").asText("");
            if (name.isEmpty()) {
                errors.add(FieldError.required(at + ".name"));
            }
            if (!volumes.contains(name)) {
                errors.add(FieldError.notFound(at + ".name", name));
            }
            String mountPath = mounts.get(i).path("mountPath").asText("");
            if (mountPath.isEmpty()) {
                errors.add(FieldError.required(at + ".mountPath"));
            }
            if (!mountPaths.add(mountPath)) {
                errors.add(FieldError.invalid(at + ".mountPath", mountPath, "must be unique"));
            }
        }
        String pullPolicy = container.path("imagePullPolicy").asText("");
        if (!pullPolicy.isEmpty() && !PULL_POLICIES.contains(pullPolicy)) {
            errors.add(FieldError.notSupported(path + ".imagePullPolicy", pullPolicy, PULL_POLICIES));
        }
        errors.addAll(resources(container.path("resources"), path + ".resources"));
        return errors;
    }

    private static List<FieldError> ports(JsonNode ports, String path) {
        List<FieldError> errors = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < ports.size(); i++) {
            JsonNode port = ports.get(i);
            String at = path + "[" + i + "]";
            String name = port.path("name").asText("");
            if (!name.isEmpty()) {
                List<String> problems = portNameProblems(name);
                problems.forEach(problem -> errors.add(FieldError.invalid(at + ".name", name, problem)));
                if (problems.isEmpty() && !names.add(name)) {
                    errors.add(FieldError.duplicate(at + ".name", name));
                }
            }
            long containerPort = port.path("containerPort").asLong(0);
            if (containerPort == 0) {
                errors.add(FieldError.required(at + ".containerPort"));
            } else if (containerPort < 1 || containerPort > 65535) {
                errors.add(FieldError.invalid(at + ".containerPort", containerPort, "must be between 1 and 65535, inclusive"));
            }
            long hostPort = port.path("hostPort").asLong(0);
            if (hostPort != 0 && (hostPort < 1 || hostPort > 65535)) {
                errors.add(FieldError.invalid(at + ".hostPort", hostPort, "must be between 1 and 65535, inclusive"));
            }
            String protocol = port.path("protocol").asText("");
            if (!protocol.isEmpty() && !PROTOCOLS.contains(protocol)) {
                errors.add(FieldError.notSupported(at + ".protocol", protocol, PROTOCOLS));
            }
        }
        return errors;
    }

    /**
     * Limits and requests: each non-negative; a request at most its limit, and for an extended resource (a name with a
     * domain other than kubernetes.io's), which cannot be overcommitted, equal to it and never without one.
     * Resources are taken in name order where kube-apiserver takes them in Go's random map order.
     */
    private static List<FieldError> resources(JsonNode resources, String path) {
        List<FieldError> errors = new ArrayList<>();
        Map<String, Quantity> limits = new HashMap<>();
        for (String name : new TreeSet<>(fieldNames(resources.path("limits")))) {
            Optional<Quantity> limit = Quantity.of(resources.path("limits").path(name));
            limit.ifPresent(quantity -> limits.put(name, quantity));
            limit.filter(Quantity::isNegative).ifPresent(quantity -> errors.add(FieldError.invalid(
                    path + ".limits[" + name + "]", quantity.toString(), "must be greater than or equal to 0")));
        }
        for (String name : new TreeSet<>(fieldNames(resources.path("requests")))) {
            Optional<Quantity> parsed = Quantity.of(resources.path("requests").path(name));
            if (parsed.isEmpty()) {
                continue;
            }
            Quantity request = parsed.get();
            if (request.isNegative()) {
                errors.add(FieldError.invalid(path + ".requests[" + name + "]", request.toString(),
                        "must be greater than or equal to 0"));
            }
            Quantity limit = limits.get(name);
            boolean overcommitted = overcommitAllowed(name);
            if (limit != null && !overcommitted && request.compareTo(limit) != 0) {
                errors.add(FieldError.invalid(path + ".requests", request.toString(),
                        "must be equal to " + name + " limit of " + limit));
            } else if (limit != null && request.compareTo(limit) > 0) {
                errors.add(FieldError.invalid(path + ".requests", request.toString(),
                        "must be less than or equal to " + name + " limit of " + limit));
            } else if (limit == null && !overcommitted) {
                errors.add(new FieldError(FieldError.Type.REQUIRED, path + ".limits", null,
                        "Limit must be set for non overcommitable resources"));
            }
        }
        return errors;
    }

    /** Native resources (no domain, or kubernetes.io's) other than huge pages may be overcommitted. */
    private static boolean overcommitAllowed(String resource) {
        return (!resource.contains("/") || resource.contains("kubernetes.io/")) && !resource.startsWith("hugepages-");
    }

    private static Optional<String> quantityProblem(JsonNode quantity) {
        if (quantity.isNumber()) {
            return Optional.empty();
        }
        try {
            Quantity.parse(quantity.asText());
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.of(e.getMessage());
        }
    }

    private static List<FieldError> label(String value, String path) {
        if (value.isEmpty()) {
            return List.of(FieldError.required(path));
        }
        List<FieldError> errors = new ArrayList<>();
        if (value.length() > LABEL_MAX_LENGTH) {
            errors.add(FieldError.invalid(path, value, "must be no more than " + LABEL_MAX_LENGTH + " characters"));
        }
        if (!LABEL.matcher(value).matches()) {
            errors.add(FieldError.invalid(path, value,
                    SUBDOMAIN.matcher(value).matches() ? "must not contain dots" : LABEL_MESSAGE));
        }
        return errors;
    }

    private static List<String> portNameProblems(String name) {
        List<String> problems = new ArrayList<>();
        if (name.length() > 15) {
            problems.add("must be no more than 15 characters");
        }
        if (!PORT_NAME_CHARACTERS.matcher(name).matches()) {
            problems.add("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
        }
        if (!A_LETTER.matcher(name).matches()) {
            problems.add("must contain at least one letter (a-z)");
        }
        if (name.contains("--")) {
            problems.add("must not contain consecutive hyphens");
        }
        if (name.startsWith("-") || name.endsWith("-")) {
            problems.add("must not begin or end with a hyphen");
        }
        return problems;
    }

    private static List<String> fieldNames(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
