package dev.muster.local.quota;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.api.KubeTime;
import dev.muster.api.Sidecars;
import dev.muster.local.admission.Quantity;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What ResourceQuotas make of pods, as kube-apiserver's ResourceQuota admission and kube-controller-manager's quota
 * controller make of it with the pod evaluator
 * (<a href="https://github.com/kubernetes/kubernetes/blob/master/pkg/quota/v1/evaluator/core/pods.go">pods.go</a>,
 * <a href="https://github.com/kubernetes/kubernetes/blob/master/plugin/pkg/admission/resourcequota/controller.go">controller.go</a>):
 * a quota's {@code status.used} from the pods of its namespace, and whether a new pod fits the quotas.
 *
 * <p>A pod counts for {@code count/pods} as long as it is stored; for {@code pods} and its compute resources
 * ({@code cpu}/{@code requests.cpu}, {@code memory}/{@code requests.memory}, {@code limits.cpu},
 * {@code limits.memory}, the same of {@code ephemeral-storage}, {@code hugepages-*}, and {@code requests.<extended>}
 * such as {@code requests.nvidia.com/gpu}) only until it is Succeeded or Failed, or its deletion is past its grace
 * period. Its requests are the containers' summed, or the largest init container's if more, native sidecars added
 * to both, plus the pod's {@code overhead}; a limit without a request counts as the request, as kube-apiserver's
 * defaulting makes it one. A quota applies to a pod when its scopes all select the pod ({@code Terminating},
 * {@code NotTerminating}, {@code BestEffort}, {@code NotBestEffort}, {@code PriorityClass},
 * {@code CrossNamespacePodAffinity}) and its {@code hard} names a resource pods count for. Resources of other
 * kinds ({@code services}, {@code count/configmaps}, ...) are neither counted nor enforced.
 */
public final class PodQuota {
    private static final Set<String> POD_RESOURCES = Set.of("count/pods", "pods", "cpu", "memory", "ephemeral-storage",
            "requests.cpu", "requests.memory", "requests.ephemeral-storage", "limits.cpu", "limits.memory",
            "limits.ephemeral-storage");
    /**
     * The names a quota makes every container set, Kubernetes' compatibility rule from before QoS classes: only
     * these, never an extended resource's.
     */
    private static final Set<String> MUST_SPECIFY = Set.of("cpu", "memory", "requests.cpu", "requests.memory",
            "limits.cpu", "limits.memory");
    private static final Quantity ZERO = new Quantity(BigDecimal.ZERO, Quantity.Format.DECIMAL_SI);
    private static final Quantity ONE = new Quantity(BigDecimal.ONE, Quantity.Format.DECIMAL_SI);

    private PodQuota() {
    }

    /**
     * The status the quota controller gives a quota: {@code hard} as its spec says, {@code used} the sum over the
     * pods it applies to of each pod resource {@code hard} names, zero where no pod counts.
     *
     * @param pods the pods of the quota's namespace
     * @param now  the time a deletion's grace period is measured against
     */
    public static ObjectNode status(JsonNode quota, List<? extends JsonNode> pods, Instant now) {
        Map<String, Quantity> hard = hard(quota);
        SortedMap<String, Quantity> used = new TreeMap<>();
        hard.keySet().stream().filter(PodQuota::countsPods).forEach(name -> used.put(name, ZERO));
        for (JsonNode pod : pods) {
            if (selects(quota, pod)) {
                usage(pod, now).forEach((name, amount) -> used.computeIfPresent(name, (n, sum) -> plus(sum, amount)));
            }
        }
        ObjectNode status = JsonNodeFactory.instance.objectNode();
        status.set("hard", quantities(hard));
        status.set("used", quantities(used));
        return status;
    }

    /**
     * Why kube-apiserver would refuse to create {@code pod} under these quotas, if it would: a quota that constrains
     * cpu or memory and a container that sets none ({@code failed quota: <quota>: must specify ...}), else one the
     * pod's usage would take past its {@code hard} ({@code exceeded quota: <quota>, requested: ..., used: ...,
     * limited: ...}). Quotas are judged in the order given.
     *
     * @param quotas the quotas of the pod's namespace, each with its current {@code status.used}
     */
    public static Optional<String> refusal(List<? extends JsonNode> quotas, JsonNode pod, Instant now) {
        List<JsonNode> applying = quotas.stream().filter(quota -> selects(quota, pod)).map(JsonNode.class::cast).toList();
        for (JsonNode quota : applying) {
            Set<String> required = hard(quota).keySet().stream().filter(MUST_SPECIFY::contains)
                    .collect(Collectors.toCollection(TreeSet::new));
            Optional<String> missing = missing(required, pod.path("spec"));
            if (missing.isPresent()) {
                return Optional.of("failed quota: " + name(quota) + ": must specify " + missing.get());
            }
        }
        Map<String, Quantity> usage = usage(pod, now);
        for (JsonNode quota : applying) {
            Map<String, Quantity> hard = hard(quota);
            Map<String, Quantity> used = read(quota.path("status").path("used"));
            SortedMap<String, Quantity> requested = new TreeMap<>();
            SortedMap<String, Quantity> usedBefore = new TreeMap<>();
            SortedMap<String, Quantity> limited = new TreeMap<>();
            usage.forEach((name, amount) -> {
                Quantity limit = hard.get(name);
                Quantity before = used.get(name);
                if (limit != null && plus(before == null ? ZERO : before, amount).compareTo(limit) > 0) {
                    requested.put(name, amount);
                    if (before != null) {
                        usedBefore.put(name, before);
                    }
                    limited.put(name, limit);
                }
            });
            if (!requested.isEmpty()) {
                return Optional.of("exceeded quota: " + name(quota) + ", requested: " + listed(requested) + ", used: "
                        + listed(usedBefore) + ", limited: " + listed(limited));
            }
        }
        return Optional.empty();
    }

    /**
     * When one of these pods stops counting by itself: the end of a deletion's grace period, which no write
     * marks, so the quota controller looks again then.
     */
    public static Optional<Instant> nextExpiry(List<? extends JsonNode> pods, Instant now) {
        return pods.stream().map(PodQuota::graceEnds).flatMap(Optional::stream).filter(end -> !end.isBefore(now))
                .min(Instant::compareTo);
    }

    /** Whether a quota's hard limit of this name counts pods or their compute resources. */
    static boolean countsPods(String resource) {
        return POD_RESOURCES.contains(resource) || resource.startsWith("hugepages-")
                || resource.startsWith("requests.hugepages-")
                || resource.startsWith("requests.") && !isNative(resource.substring("requests.".length()));
    }

    /** What one pod counts for, by resource name, as {@code status.used} adds it up. */
    static SortedMap<String, Quantity> usage(JsonNode pod, Instant now) {
        SortedMap<String, Quantity> usage = new TreeMap<>();
        usage.put("count/pods", ONE);
        if (!charged(pod, now)) {
            return usage;
        }
        JsonNode spec = pod.path("spec");
        usage.putAll(computeUsage(podTotal(spec, true), podTotal(spec, false)));
        return usage;
    }

    /**
     * Whether the quota applies to the pod: its {@code hard} names a resource pods count for and each of its scopes
     * selects the pod (a quota without scopes, every pod).
     */
    static boolean selects(JsonNode quota, JsonNode pod) {
        if (hard(quota).keySet().stream().noneMatch(PodQuota::countsPods)) {
            return false;
        }
        JsonNode spec = quota.path("spec");
        for (JsonNode scope : spec.path("scopes")) {
            if (!inScope(scope.asText(), "Exists", List.of(), pod)) {
                return false;
            }
        }
        for (JsonNode expression : spec.path("scopeSelector").path("matchExpressions")) {
            List<String> values = new ArrayList<>();
            expression.path("values").forEach(value -> values.add(value.asText()));
            if (!inScope(expression.path("scopeName").asText(), expression.path("operator").asText(), values, pod)) {
                return false;
            }
        }
        return true;
    }

    private static boolean inScope(String scope, String operator, List<String> values, JsonNode pod) {
        JsonNode spec = pod.path("spec");
        return switch (scope) {
            case "Terminating" -> terminating(spec);
            case "NotTerminating" -> !terminating(spec);
            case "BestEffort" -> bestEffort(spec);
            case "NotBestEffort" -> !bestEffort(spec);
            case "PriorityClass" -> {
                String priorityClass = spec.path("priorityClassName").asText("");
                yield switch (operator) {
                    case "Exists" -> !priorityClass.isEmpty();
                    case "DoesNotExist" -> priorityClass.isEmpty();
                    case "In" -> !priorityClass.isEmpty() && values.contains(priorityClass);
                    case "NotIn" -> priorityClass.isEmpty() || !values.contains(priorityClass);
                    default -> false;
                };
            }
            case "CrossNamespacePodAffinity" -> crossNamespaceAffinity(spec.path("affinity"));
            default -> false;
        };
    }

    private static boolean terminating(JsonNode spec) {
        return spec.path("activeDeadlineSeconds").isNumber() && spec.path("activeDeadlineSeconds").asLong() >= 0;
    }

    /** The BestEffort QoS class: no container, init containers included, asks for or limits cpu or memory. */
    private static boolean bestEffort(JsonNode spec) {
        for (JsonNode container : containers(spec)) {
            for (String field : List.of("requests", "limits")) {
                for (String resource : List.of("cpu", "memory")) {
                    Optional<Quantity> amount = Quantity.of(container.path("resources").path(field).path(resource));
                    if (amount.isPresent() && amount.get().value().signum() > 0) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private static boolean crossNamespaceAffinity(JsonNode affinity) {
        for (String kind : List.of("podAffinity", "podAntiAffinity")) {
            JsonNode terms = affinity.path(kind);
            for (JsonNode term : terms.path("requiredDuringSchedulingIgnoredDuringExecution")) {
                if (crossNamespace(term)) {
                    return true;
                }
            }
            for (JsonNode weighted : terms.path("preferredDuringSchedulingIgnoredDuringExecution")) {
                if (crossNamespace(weighted.path("podAffinityTerm"))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean crossNamespace(JsonNode term) {
        return !term.path("namespaces").isEmpty() || term.path("namespaceSelector").isObject();
    }

    /**
     * Whether the pod's compute resources count: a finished pod's do not, nor those of a pod whose deletion is past
     * its grace period (a lost node's pod must not hold quota forever).
     */
    private static boolean charged(JsonNode pod, Instant now) {
        String phase = pod.path("status").path("phase").asText("");
        if (phase.equals("Succeeded") || phase.equals("Failed")) {
            return false;
        }
        return graceEnds(pod).map(end -> !now.isAfter(end)).orElse(true);
    }

    /** The deletion timestamp plus the grace period once more, as the pod evaluator measures it. */
    private static Optional<Instant> graceEnds(JsonNode pod) {
        JsonNode metadata = pod.path("metadata");
        if (!metadata.hasNonNull("deletionTimestamp") || !metadata.path("deletionGracePeriodSeconds").isNumber()) {
            return Optional.empty();
        }
        return KubeTime.tryParse(metadata.path("deletionTimestamp").asText())
                .map(at -> at.plusSeconds(metadata.path("deletionGracePeriodSeconds").asLong()));
    }

    /**
     * The pod's requests or limits: the containers' and sidecars' summed, or an init container's with the sidecars
     * started before it if that is more, plus the pod's overhead (on limits only where there is a limit).
     */
    private static Map<String, Quantity> podTotal(JsonNode spec, boolean requests) {
        Map<String, Quantity> total = new TreeMap<>();
        for (JsonNode container : spec.path("containers")) {
            add(total, resources(container, requests));
        }
        Map<String, Quantity> sidecars = new TreeMap<>();
        Map<String, Quantity> largestInit = new TreeMap<>();
        for (JsonNode init : spec.path("initContainers")) {
            Map<String, Quantity> own = resources(init, requests);
            Map<String, Quantity> running = new TreeMap<>(sidecars);
            if (init.path("restartPolicy").asText("").equals(Sidecars.RESTART_POLICY)) {
                add(total, own);
                add(sidecars, own);
                running = new TreeMap<>(sidecars);
            } else {
                add(running, own);
            }
            running.forEach((name, amount) -> largestInit.merge(name, amount, PodQuota::max));
        }
        largestInit.forEach((name, amount) -> total.merge(name, amount, PodQuota::max));
        read(spec.path("overhead")).forEach((name, amount) -> {
            if (requests) {
                total.merge(name, amount, PodQuota::plus);
            } else {
                total.computeIfPresent(name, (n, limit) -> plus(limit, amount));
            }
        });
        return total;
    }

    /** A container's requests, a limit standing in for a missing request, or its limits. */
    private static Map<String, Quantity> resources(JsonNode container, boolean requests) {
        JsonNode resources = container.path("resources");
        Map<String, Quantity> limits = read(resources.path("limits"));
        if (!requests) {
            return limits;
        }
        Map<String, Quantity> asked = new TreeMap<>(limits);
        asked.putAll(read(resources.path("requests")));
        return asked;
    }

    /** The quota resource names requests and limits count for; {@code pods} always. */
    private static Map<String, Quantity> computeUsage(Map<String, Quantity> requests, Map<String, Quantity> limits) {
        Map<String, Quantity> usage = new TreeMap<>();
        usage.put("pods", ONE);
        for (String resource : List.of("cpu", "memory", "ephemeral-storage")) {
            if (requests.containsKey(resource)) {
                usage.put(resource, requests.get(resource));
                usage.put("requests." + resource, requests.get(resource));
            }
            if (limits.containsKey(resource)) {
                usage.put("limits." + resource, limits.get(resource));
            }
        }
        requests.forEach((resource, amount) -> {
            if (resource.startsWith("hugepages-")) {
                usage.put(resource, amount);
                usage.put("requests." + resource, amount);
            } else if (!isNative(resource)) {
                usage.put("requests." + resource, amount);
            }
        });
        return usage;
    }

    /**
     * {@code must specify} and the names of the containers without each required resource, resource by resource
     * in order; empty when every container sets them all.
     */
    private static Optional<String> missing(Set<String> required, JsonNode spec) {
        if (required.isEmpty()) {
            return Optional.empty();
        }
        SortedMap<String, Set<String>> containersWithout = new TreeMap<>();
        for (JsonNode container : containers(spec)) {
            Set<String> set = computeUsage(resources(container, true), resources(container, false)).keySet();
            for (String resource : required) {
                if (!set.contains(resource)) {
                    containersWithout.computeIfAbsent(resource, r -> new TreeSet<>())
                            .add(container.path("name").asText());
                }
            }
        }
        if (containersWithout.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(containersWithout.entrySet().stream()
                .map(entry -> entry.getKey() + " for: " + String.join(",", entry.getValue()))
                .collect(Collectors.joining("; ")));
    }

    private static List<JsonNode> containers(JsonNode spec) {
        List<JsonNode> all = new ArrayList<>();
        spec.path("containers").forEach(all::add);
        spec.path("initContainers").forEach(all::add);
        return all;
    }

    /** Kubernetes' native resource names: unprefixed, or in {@code kubernetes.io}. */
    private static boolean isNative(String resource) {
        return !resource.contains("/") || resource.contains("kubernetes.io/");
    }

    private static Map<String, Quantity> hard(JsonNode quota) {
        return read(quota.path("spec").path("hard"));
    }

    private static String name(JsonNode quota) {
        return quota.path("metadata").path("name").asText();
    }

    /** A ResourceList; entries that are no quantity (validation refuses them) left out. */
    private static Map<String, Quantity> read(JsonNode list) {
        Map<String, Quantity> read = new TreeMap<>();
        list.fields().forEachRemaining(entry -> Quantity.of(entry.getValue())
                .ifPresent(amount -> read.put(entry.getKey(), amount)));
        return read;
    }

    private static ObjectNode quantities(Map<String, Quantity> list) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        list.forEach((name, amount) -> node.put(name, amount.toString()));
        return node;
    }

    /** As in the refusals of kube-apiserver: {@code name=amount} by name, comma-separated. */
    private static String listed(SortedMap<String, Quantity> list) {
        return list.entrySet().stream().map(entry -> entry.getKey() + "=" + entry.getValue())
                .collect(Collectors.joining(","));
    }

    private static void add(Map<String, Quantity> sum, Map<String, Quantity> more) {
        more.forEach((name, amount) -> sum.merge(name, amount, PodQuota::plus));
    }

    /** A sum printed as the first addend is, unless that is zero: Kubernetes' {@code Quantity.Add}. */
    private static Quantity plus(Quantity a, Quantity b) {
        return new Quantity(a.value().add(b.value()), a.value().signum() == 0 ? b.format() : a.format());
    }

    private static Quantity max(Quantity a, Quantity b) {
        return b.compareTo(a) > 0 ? b : a;
    }
}
