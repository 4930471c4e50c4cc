package dev.muster.api.scheduling.v1alpha1;

import dev.muster.api.LabelSelectors;
import dev.muster.api.batch.v1alpha1.GoDuration;
import dev.muster.api.batch.v1alpha1.validation.FieldError;
import io.fabric8.kubernetes.api.model.Quantity;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Checks a set of queues as a tree: each queue's own fields (what a CRD schema expresses, for queues written
 * past it, and guarantee against limit, which it does not), that its parent exists, that parents form no
 * cycle, that the children's guarantees fit in their parent's guarantee and that no child's limit is above
 * its parent's. Plain data in, problems out: the scheduler runs it on its Queue informer's contents and
 * writes the result as each queue's {@code Valid} condition ({@link QueueCondition#valid}).
 *
 * <p>A resource a parent does not guarantee counts as guaranteed 0: a child's guarantee is taken from its
 * parent's, so a parent that guarantees nothing has nothing to hand on. A resource a parent does not limit
 * leaves its children's limits free.
 */
public final class QueueTreeValidator {

    private QueueTreeValidator() {
    }

    /**
     * @param specs every queue, by name (a spec may be {@code null}: a queue that set none)
     * @return for every queue of {@code specs}, by name in name order, its problems (empty when it is valid)
     */
    public static Map<String, List<FieldError>> validate(Map<String, QueueSpec> specs) {
        Map<String, List<FieldError>> problems = new TreeMap<>();
        specs.keySet().forEach(name -> problems.put(name, new ArrayList<>()));
        specs.forEach((name, spec) -> checkFields(name, spec == null ? new QueueSpec() : spec, specs, problems.get(name)));
        checkCycles(specs, problems);
        checkAgainstParents(specs, problems);
        return problems;
    }

    private static void checkFields(String name, QueueSpec spec, Map<String, QueueSpec> specs, List<FieldError> out) {
        if (spec.getWeight() != null && spec.getWeight() < 1) {
            out.add(new FieldError("spec.weight", "must be at least 1, got " + spec.getWeight()));
        }
        if (spec.getState() != null && !QueueSpec.OPEN.equals(spec.getState()) && !QueueSpec.CLOSED.equals(spec.getState())) {
            out.add(new FieldError("spec.state", "must be Open or Closed, got '" + spec.getState() + "'"));
        }
        QueuePreemptionSpec preemption = spec.getPreemption();
        if (preemption != null) {
            String within = preemption.getWithinQueue();
            if (within != null && !QueuePreemptionSpec.NEVER.equals(within) && !QueuePreemptionSpec.LOWER_PRIORITY.equals(within)) {
                out.add(new FieldError("spec.preemption.withinQueue", "must be Never or LowerPriority, got '" + within + "'"));
            }
            if (preemption.getReclaimDelay() != null) {
                try {
                    GoDuration.parse(preemption.getReclaimDelay());
                } catch (IllegalArgumentException e) {
                    out.add(new FieldError("spec.preemption.reclaimDelay", e.getMessage()));
                }
            }
        }
        Map<String, BigDecimal> guarantee = amounts("spec.guarantee", QueueDefaults.guarantee(spec), out);
        Map<String, BigDecimal> limit = amounts("spec.limit", QueueDefaults.limit(spec), out);
        guarantee.forEach((resource, amount) -> {
            BigDecimal cap = limit.get(resource);
            if (cap != null && amount.compareTo(cap) > 0) {
                out.add(new FieldError("spec.guarantee." + resource, QueueDefaults.guarantee(spec).get(resource)
                        + " is above the queue's limit " + QueueDefaults.limit(spec).get(resource)));
            }
        });
        out.addAll(LabelSelectors.problems(spec.getNamespaceSelector(), "spec.namespaceSelector"));
        if (Queue.DEFAULT.equals(name) && spec.getNamespaceSelector() != null) {
            out.add(new FieldError("spec.namespaceSelector", "is not honoured on queue " + Queue.DEFAULT
                    + ", which every namespace may use; remove it"));
        }
        String parent = QueueDefaults.parent(spec);
        if (name.equals(parent)) {
            out.add(new FieldError("spec.parent", "a queue cannot be its own parent"));
        } else if (parent != null && !specs.containsKey(parent)) {
            out.add(new FieldError("spec.parent", "queue " + parent + " does not exist"));
        }
    }

    /** The quantities that parse and are not negative; the others are reported. */
    private static Map<String, BigDecimal> amounts(String field, Map<String, Quantity> quantities, List<FieldError> out) {
        Map<String, BigDecimal> amounts = new TreeMap<>();
        quantities.forEach((resource, quantity) -> {
            Optional<BigDecimal> amount = amount(quantity);
            if (amount.isEmpty()) {
                out.add(new FieldError(field + "." + resource, "'" + quantity + "' is not a quantity"));
            } else if (amount.get().signum() < 0) {
                out.add(new FieldError(field + "." + resource, "must not be negative, got " + quantity));
            } else {
                amounts.put(resource, amount.get());
            }
        });
        return amounts;
    }

    private static Optional<BigDecimal> amount(Quantity quantity) {
        if (quantity == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(quantity.getNumericalAmount());
        } catch (IllegalArgumentException | ArithmeticException e) {
            return Optional.empty();
        }
    }

    private static void checkCycles(Map<String, QueueSpec> specs, Map<String, List<FieldError>> problems) {
        for (String name : specs.keySet()) {
            QueueAncestry ancestry = QueueAncestry.of(name, specs);
            String current = ancestry.cycleStart();
            // A missing parent is checkFields' to report, a queue that is its own parent too.
            if (current == null || current.equals(name) && ancestry.path().size() == 1) {
                continue;
            }
            if (current.equals(name)) {
                String cycle = String.join(" -> ", ancestry.path()) + " -> " + name;
                problems.get(name).add(new FieldError("spec.parent", "the queue is in a cycle of parents: " + cycle));
            } else {
                problems.get(name).add(new FieldError("spec.parent", "ancestor " + current + " is in a cycle of parents"));
            }
        }
    }

    private static void checkAgainstParents(Map<String, QueueSpec> specs, Map<String, List<FieldError>> problems) {
        QueueAncestry.children(specs).forEach((parent, kids) -> {
            checkGuarantees(parent, kids, specs, problems);
            kids.forEach(child -> checkLimit(child, parent, specs, problems.get(child)));
        });
    }

    private static void checkGuarantees(String parent, List<String> kids, Map<String, QueueSpec> specs,
                                        Map<String, List<FieldError>> problems) {
        Map<String, BigDecimal> parentGuarantee = validAmounts(QueueDefaults.guarantee(specs.get(parent)));
        Set<String> resources = new TreeSet<>();
        kids.forEach(kid -> resources.addAll(validAmounts(QueueDefaults.guarantee(specs.get(kid))).keySet()));
        for (String resource : resources) {
            Map<String, BigDecimal> shares = new TreeMap<>();
            kids.forEach(kid -> {
                BigDecimal amount = validAmounts(QueueDefaults.guarantee(specs.get(kid))).get(resource);
                if (amount != null && amount.signum() > 0) {
                    shares.put(kid, amount);
                }
            });
            BigDecimal sum = shares.values().stream().reduce(BigDecimal.ZERO, BigDecimal::add);
            BigDecimal available = parentGuarantee.getOrDefault(resource, BigDecimal.ZERO);
            if (sum.compareTo(available) <= 0) {
                continue;
            }
            String parts = shares.entrySet().stream().map(e -> e.getKey() + " " + plain(e.getValue()))
                    .collect(Collectors.joining(", "));
            String parentHas = parentGuarantee.containsKey(resource)
                    ? "guarantee " + plain(available) : "no guarantee of " + resource;
            problems.get(parent).add(new FieldError("spec.guarantee." + resource, "the children's guarantees ("
                    + parts + ") sum to " + plain(sum) + ", above this queue's " + parentHas));
            shares.keySet().forEach(kid -> problems.get(kid).add(new FieldError("spec.guarantee." + resource,
                    "with its siblings' the guarantees sum to " + plain(sum) + ", above parent " + parent + "'s "
                            + parentHas)));
        }
    }

    private static void checkLimit(String child, String parent, Map<String, QueueSpec> specs, List<FieldError> out) {
        Map<String, BigDecimal> parentLimit = validAmounts(QueueDefaults.limit(specs.get(parent)));
        validAmounts(QueueDefaults.limit(specs.get(child))).forEach((resource, amount) -> {
            BigDecimal cap = parentLimit.get(resource);
            if (cap != null && amount.compareTo(cap) > 0) {
                out.add(new FieldError("spec.limit." + resource, plain(amount) + " is above parent " + parent
                        + "'s limit " + plain(cap)));
            }
        });
    }

    private static Map<String, BigDecimal> validAmounts(Map<String, Quantity> quantities) {
        Map<String, BigDecimal> amounts = new TreeMap<>();
        quantities.forEach((resource, quantity) -> amount(quantity)
                .filter(amount -> amount.signum() >= 0).ifPresent(amount -> amounts.put(resource, amount)));
        return amounts;
    }

    private static String plain(BigDecimal amount) {
        return amount.stripTrailingZeros().toPlainString();
    }
}
