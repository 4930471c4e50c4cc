package dev.muster.local.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * kube-apiserver's {@code Priority} admission plugin. On PriorityClasses: a class may be the global default only while
 * no other is. On pod creation: a pod naming a PriorityClass gets its value as
 * {@code spec.priority} and its {@code preemptionPolicy}; a pod naming none gets the global default class's name,
 * value and policy (the lowest-valued default, should a race have made several), else priority 0 and
 * {@code PreemptLowerPriority}. A pod naming a class that does not exist is refused (403
 * {@code no PriorityClass with name x was found}), and so is one whose own {@code priority} or
 * {@code preemptionPolicy} differs from what its class gives. ResourceQuota scopes and the scheduler then read the
 * class name and value the API server resolved, as on a real cluster.
 */
public final class PriorityAdmission {
    private static final String DEFAULT_POLICY = "PreemptLowerPriority";

    private PriorityAdmission() {
    }

    /**
     * The outcome for {@code pod}: a copy with its priority resolved, or the refusal's message (after
     * {@code pods "name" is forbidden: }).
     *
     * @param classes the stored PriorityClasses
     */
    public static Outcome admit(JsonNode pod, List<? extends JsonNode> classes) {
        ObjectNode admitted = pod.deepCopy();
        ObjectNode spec = admitted.withObjectProperty("spec");
        String className = spec.path("priorityClassName").asText("");
        int value;
        String policy;
        if (className.isEmpty()) {
            Optional<? extends JsonNode> globalDefault = classes.stream()
                    .filter(pc -> pc.path("globalDefault").asBoolean(false))
                    .min(Comparator.comparingInt(pc -> pc.path("value").asInt(0)));
            if (globalDefault.isPresent()) {
                spec.put("priorityClassName", globalDefault.get().path("metadata").path("name").asText());
                value = globalDefault.get().path("value").asInt(0);
                policy = globalDefault.get().path("preemptionPolicy").asText(DEFAULT_POLICY);
            } else {
                value = 0;
                policy = DEFAULT_POLICY;
            }
        } else {
            Optional<? extends JsonNode> named = classes.stream()
                    .filter(pc -> className.equals(pc.path("metadata").path("name").asText())).findFirst();
            if (named.isEmpty()) {
                return Outcome.refused("no PriorityClass with name " + className + " was found");
            }
            value = named.get().path("value").asInt(0);
            policy = named.get().path("preemptionPolicy").asText(DEFAULT_POLICY);
        }
        if (spec.hasNonNull("priority") && spec.path("priority").asInt() != value) {
            return Outcome.refused("the integer value of priority (" + spec.path("priority").asInt() + ") must not be "
                    + "provided in pod spec; priority admission controller computed " + value
                    + " from the given PriorityClass name");
        }
        if (spec.hasNonNull("preemptionPolicy") && !spec.path("preemptionPolicy").asText().equals(policy)) {
            return Outcome.refused("the string value of PreemptionPolicy (" + spec.path("preemptionPolicy").asText()
                    + ") must not be provided in pod spec; priority admission controller computed " + policy
                    + " from the given PriorityClass name");
        }
        spec.put("priority", value);
        spec.put("preemptionPolicy", policy);
        return new Outcome(admitted, null);
    }

    /**
     * Why the API server refuses to store {@code priorityClass} (created, or replaced), if it does: a second global
     * default, in kube's words, naming the one there is.
     *
     * @param stored the stored PriorityClasses
     */
    public static Optional<String> classRefusal(JsonNode priorityClass, List<? extends JsonNode> stored) {
        if (!priorityClass.path("globalDefault").asBoolean(false)) {
            return Optional.empty();
        }
        String name = priorityClass.path("metadata").path("name").asText();
        return stored.stream().filter(pc -> pc.path("globalDefault").asBoolean(false))
                .map(pc -> pc.path("metadata").path("name").asText()).filter(other -> !other.equals(name)).findFirst()
                .map(other -> "PriorityClass " + other + " is already marked as default. Only one default can exist");
    }

    /**
     * Keeps in {@code update}, a pod's new version, the priority and preemption policy admission gave the
     * {@code stored} one, where the update leaves them out, as the plugin does on update.
     */
    public static void keepResolved(JsonNode stored, ObjectNode update) {
        JsonNode storedSpec = stored.path("spec");
        if (!(update.path("spec") instanceof ObjectNode spec)) {
            return;
        }
        for (String field : new String[]{"priority", "preemptionPolicy"}) {
            if (!spec.hasNonNull(field) && storedSpec.hasNonNull(field)) {
                spec.set(field, storedSpec.get(field).deepCopy());
            }
        }
    }

    /**
     * @param pod     the pod with its priority resolved; {@code null} when refused
     * @param refusal why the pod is refused; {@code null} when admitted
     */
    public record Outcome(JsonNode pod, String refusal) {
        static Outcome refused(String why) {
            return new Outcome(null, why);
        }

        /** The refusal, if the pod is refused. */
        public Optional<String> refused() {
            return Optional.ofNullable(refusal);
        }
    }
}
