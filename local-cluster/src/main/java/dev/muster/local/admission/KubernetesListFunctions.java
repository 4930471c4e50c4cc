package dev.muster.local.admission;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.TypeParamType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;

import java.util.List;

/**
 * The numeric functions of Kubernetes' CEL list library, which kube-apiserver offers in CRD validation rules:
 * {@code sum()}, {@code min()} and {@code max()} on a list of numbers, such as
 * {@code self.tasks.map(t, t.replicas).sum()} (documented at
 * <a href="https://kubernetes.io/docs/reference/using-api/cel/#kubernetes-list-library">Kubernetes list library</a>).
 * cel-java has no such library, so it is written here: Kubernetes' is Go, in the API server.
 *
 * <p>As there: the sum of an empty list is 0, {@code min()} and {@code max()} of an empty list fail the rule,
 * and an integer sum that overflows 64 bits fails it too. The elements must all be integers or all be doubles;
 * JSON holds no unsigned integers or durations, the list library's other element types.
 */
final class KubernetesListFunctions {
    private static final TypeParamType ELEMENT = TypeParamType.create("T");
    private static final CelType LIST = ListType.create(ELEMENT);

    private KubernetesListFunctions() {
    }

    /** What the compiler must know: each function is a member of a list, giving its element type. */
    static List<CelFunctionDecl> declarations() {
        return List.of(
                CelFunctionDecl.newFunctionDeclaration("sum", CelOverloadDecl.newMemberOverload("list_sum", ELEMENT, LIST)),
                CelFunctionDecl.newFunctionDeclaration("min", CelOverloadDecl.newMemberOverload("list_min", ELEMENT, LIST)),
                CelFunctionDecl.newFunctionDeclaration("max", CelOverloadDecl.newMemberOverload("list_max", ELEMENT, LIST)));
    }

    /** What the runtime runs for each declaration. */
    static List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("list_sum", List.class, KubernetesListFunctions::sum),
                CelFunctionBinding.from("list_min", List.class, list -> extreme("min", list, -1)),
                CelFunctionBinding.from("list_max", List.class, list -> extreme("max", list, 1)));
    }

    private static Object sum(List<?> list) throws CelEvaluationException {
        if (allOf(list, Long.class)) {
            long total = 0;
            for (Object element : list) {
                try {
                    total = Math.addExact(total, (Long) element);
                } catch (ArithmeticException e) {
                    throw new CelEvaluationException("integer overflow in sum()", e);
                }
            }
            return total;
        }
        if (allOf(list, Double.class)) {
            double total = 0;
            for (Object element : list) {
                total += (Double) element;
            }
            return total;
        }
        throw numbersOnly("sum");
    }

    /** The least ({@code sign} -1) or greatest ({@code sign} 1) element. */
    private static Object extreme(String function, List<?> list, int sign) throws CelEvaluationException {
        if (list.isEmpty()) {
            throw new CelEvaluationException(function + " called on empty list");
        }
        if (!allOf(list, Long.class) && !allOf(list, Double.class)) {
            throw numbersOnly(function);
        }
        @SuppressWarnings("unchecked")
        List<Comparable<Object>> numbers = (List<Comparable<Object>>) list;
        Comparable<Object> best = numbers.get(0);
        for (Comparable<Object> element : numbers) {
            if (Integer.signum(element.compareTo(best)) == sign) {
                best = element;
            }
        }
        return best;
    }

    private static boolean allOf(List<?> list, Class<?> type) {
        return list.stream().allMatch(type::isInstance);
    }

    private static CelEvaluationException numbersOnly(String function) {
        return new CelEvaluationException(function + "() needs a list of integers or a list of doubles");
    }
}
