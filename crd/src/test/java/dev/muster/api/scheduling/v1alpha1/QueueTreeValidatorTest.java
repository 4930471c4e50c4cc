package dev.muster.api.scheduling.v1alpha1;

import dev.muster.api.batch.v1alpha1.validation.FieldError;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

class QueueTreeValidatorTest {

    @Test
    void aValidTreeHasNoProblemForAnyQueue() {
        Map<String, QueueSpec> specs = new LinkedHashMap<>();
        specs.put("org", spec(null, Map.of("nvidia.com/gpu", "16"), Map.of("nvidia.com/gpu", "24")));
        specs.put("a1", spec("org", Map.of("nvidia.com/gpu", "6"), Map.of("nvidia.com/gpu", "24")));
        specs.put("a2", spec("org", Map.of("nvidia.com/gpu", "10"), Map.of()));
        specs.put("default", null);

        assertThat(QueueTreeValidator.validate(specs)).containsOnlyKeys("a1", "a2", "default", "org")
                .allSatisfy((name, problems) -> assertThat(problems).as(name).isEmpty());
    }

    @Test
    void aMissingParentIsReportedOnTheChild() {
        Map<String, List<FieldError>> problems = QueueTreeValidator.validate(Map.of("a", spec("org", Map.of(), Map.of())));

        assertThat(problems.get("a")).containsExactly(new FieldError("spec.parent", "queue org does not exist"));
    }

    @Test
    void anEmptyParentIsAQueueAtTheTopAsForTheQueueAJobMayUse() {
        // The validator read spec.parent raw and refused "" ("queue  does not exist"), marking the queue Invalid,
        // while QueueAccess (the Job controller's gate) read it as no parent and let jobs in.
        Map<String, QueueSpec> specs = new LinkedHashMap<>();
        specs.put("team", spec("", Map.of(), Map.of()));

        assertThat(QueueTreeValidator.validate(specs).get("team")).isEmpty();
        assertThat(QueueAccess.refusal("team", specs, "default", Map.of())).isEmpty();
    }

    @Test
    void aCycleIsReportedOnEachQueueOfItAndOnTheQueuesBelowIt() {
        Map<String, QueueSpec> specs = new LinkedHashMap<>();
        specs.put("a", spec("b", Map.of(), Map.of()));
        specs.put("b", spec("a", Map.of(), Map.of()));
        specs.put("c", spec("a", Map.of(), Map.of()));
        specs.put("self", spec("self", Map.of(), Map.of()));

        Map<String, List<FieldError>> problems = QueueTreeValidator.validate(specs);

        assertThat(problems.get("a")).containsExactly(new FieldError("spec.parent", "the queue is in a cycle of parents: a -> b -> a"));
        assertThat(problems.get("b")).containsExactly(new FieldError("spec.parent", "the queue is in a cycle of parents: b -> a -> b"));
        assertThat(problems.get("c")).containsExactly(new FieldError("spec.parent", "ancestor a is in a cycle of parents"));
        assertThat(problems.get("self")).containsExactly(new FieldError("spec.parent", "a queue cannot be its own parent"));
    }

    @Test
    void childrensGuaranteesAboveTheParentsAreReportedOnTheParentAndEachChild() {
        Map<String, QueueSpec> specs = new LinkedHashMap<>();
        specs.put("org", spec(null, Map.of("nvidia.com/gpu", "16"), Map.of()));
        specs.put("a1", spec("org", Map.of("nvidia.com/gpu", "8", "cpu", "2"), Map.of()));
        specs.put("a2", spec("org", Map.of("nvidia.com/gpu", "10"), Map.of()));

        Map<String, List<FieldError>> problems = QueueTreeValidator.validate(specs);

        assertThat(problems.get("org")).containsExactly(
                new FieldError("spec.guarantee.cpu", "the children's guarantees (a1 2) sum to 2, above this queue's no guarantee of cpu"),
                new FieldError("spec.guarantee.nvidia.com/gpu",
                        "the children's guarantees (a1 8, a2 10) sum to 18, above this queue's guarantee 16"));
        assertThat(problems.get("a1")).containsExactly(
                new FieldError("spec.guarantee.cpu", "with its siblings' the guarantees sum to 2, above parent org's no guarantee of cpu"),
                new FieldError("spec.guarantee.nvidia.com/gpu", "with its siblings' the guarantees sum to 18, above parent org's guarantee 16"));
        assertThat(problems.get("a2")).containsExactly(
                new FieldError("spec.guarantee.nvidia.com/gpu", "with its siblings' the guarantees sum to 18, above parent org's guarantee 16"));
    }

    @Test
    void aChildsLimitAboveItsParentsIsReportedOnTheChild() {
        Map<String, QueueSpec> specs = new LinkedHashMap<>();
        specs.put("org", spec(null, Map.of(), Map.of("memory", "1Gi")));
        specs.put("a", spec("org", Map.of(), Map.of("memory", "2Gi", "cpu", "100")));

        Map<String, List<FieldError>> problems = QueueTreeValidator.validate(specs);

        assertThat(problems.get("org")).isEmpty();
        assertThat(problems.get("a")).containsExactly(
                new FieldError("spec.limit.memory", "2147483648 is above parent org's limit 1073741824"));
    }

    @Test
    void aQueuesOwnFieldsAreChecked() {
        QueueSpec spec = spec(null, Map.of("cpu", "8", "memory", "-1", "nvidia.com/gpu", "lots"), Map.of("cpu", "4"));
        spec.setWeight(0);
        spec.setState("Paused");
        QueuePreemptionSpec preemption = new QueuePreemptionSpec();
        preemption.setWithinQueue("Always");
        preemption.setReclaimDelay("soon");
        spec.setPreemption(preemption);

        assertThat(QueueTreeValidator.validate(Map.of("q", spec)).get("q")).extracting(FieldError::toString).containsExactly(
                "spec.weight: must be at least 1, got 0",
                "spec.state: must be Open or Closed, got 'Paused'",
                "spec.preemption.withinQueue: must be Never or LowerPriority, got 'Always'",
                "spec.preemption.reclaimDelay: 'soon' is not a duration like 30s, 5m or 1h30m",
                "spec.guarantee.memory: must not be negative, got -1",
                "spec.guarantee.nvidia.com/gpu: 'lots' is not a quantity",
                "spec.guarantee.cpu: 8 is above the queue's limit 4");
    }

    @Test
    void theValidConditionListsTheProblems() {
        QueueCondition valid = QueueCondition.valid(List.of());
        QueueCondition invalid = QueueCondition.valid(List.of(new FieldError("spec.parent", "queue org does not exist"),
                new FieldError("spec.weight", "must be at least 1, got 0")));

        assertThat(valid.getStatus()).isEqualTo("True");
        assertThat(valid.getReason()).isEqualTo(QueueCondition.REASON_VALID);
        assertThat(invalid.getStatus()).isEqualTo("False");
        assertThat(invalid.getReason()).isEqualTo(QueueCondition.REASON_INVALID);
        assertThat(invalid.getMessage()).isEqualTo("spec.parent: queue org does not exist; spec.weight: must be at least 1, got 0");
    }

    static QueueSpec spec(String parent, Map<String, String> guarantee, Map<String, String> limit) {
        QueueSpec spec = new QueueSpec();
        spec.setParent(parent);
        if (!guarantee.isEmpty()) {
            spec.setGuarantee(quantities(guarantee));
        }
        if (!limit.isEmpty()) {
            spec.setLimit(quantities(limit));
        }
        return spec;
    }

    private static Map<String, Quantity> quantities(Map<String, String> amounts) {
        Map<String, Quantity> quantities = new LinkedHashMap<>();
        new TreeMap<>(amounts).forEach((resource, amount) -> quantities.put(resource, new Quantity(amount)));
        return quantities;
    }
}
