package dev.muster.scheduler.core.model;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class QuotaScopeTest {

    /**
     * kube-apiserver's pod evaluator matches a PriorityClass scope as a label selector on a set that holds the pod's
     * class under {@code PriorityClass} only when it has one ({@code podMatchesSelector} in
     * {@code pkg/quota/v1/evaluator/core/pods.go}), so a pod without a class is never {@code In}, even a list
     * holding the empty name, and always {@code NotIn}.
     */
    @ParameterizedTest(name = "class ''{0}'' {1} {2}: {3}")
    @CsvSource(delimiter = ';', value = {
            "'';In;'';false", "'';In;high;false", "'';NotIn;'';true", "'';NotIn;high;true",
            "'';Exists;;false", "'';DoesNotExist;;true",
            "high;In;high|low;true", "high;In;low;false", "high;NotIn;high;false", "high;NotIn;low|'';true",
            "high;Exists;;true", "high;DoesNotExist;;false"})
    void aPriorityClassScopeSelectsAsKubesPodEvaluator(String podClass, String operator, String values, boolean selects) {
        List<String> listed = values == null ? List.of()
                : Arrays.stream(values.split("\\|")).map(v -> v.equals("''") ? "" : v).toList();
        QuotaScope scope = new QuotaScope("PriorityClass", operator, listed);

        assertThat(scope.selects(new QuotaFacts(Map.of(), podClass, false, false, false))).isEqualTo(selects);
    }

    @Test
    void aPodNamingNoClassIsJudgedWithTheGlobalDefaultTheApiServerGivesIt() {
        QuotaScope defaultOnly = new QuotaScope("PriorityClass", "In", List.of("standard"));
        QuotaFacts unnamed = new QuotaFacts(Map.of(), "", false, false, false);

        assertThat(defaultOnly.selects(unnamed)).isFalse();
        assertThat(defaultOnly.selects(unnamed.withDefaultClass("standard"))).isTrue();
        assertThat(unnamed.withDefaultClass(null)).isSameAs(unnamed);
        assertThat(new QuotaFacts(Map.of(), "high", false, false, false).withDefaultClass("standard").priorityClassName())
                .isEqualTo("high");
    }
}
