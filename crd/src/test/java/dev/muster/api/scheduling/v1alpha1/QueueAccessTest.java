package dev.muster.api.scheduling.v1alpha1;

import dev.muster.api.batch.v1alpha1.validation.FieldError;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The one rule of when a queue takes a Job or gang, as the Job controller and the scheduler both apply it. */
class QueueAccessTest {
    private static final LabelSelector TEAM_A = new LabelSelectorBuilder().addToMatchLabels("team", "a").build();

    private static QueueSpec spec(String parent, String state, LabelSelector selector) {
        QueueSpec spec = new QueueSpec();
        spec.setParent(parent);
        spec.setState(state);
        spec.setNamespaceSelector(selector);
        return spec;
    }

    private static Optional<QueueRefusal> refusal(String named, Map<String, QueueSpec> queues, Map<String, String> labels) {
        return QueueAccess.refusal(named, queues, "ns1", labels);
    }

    @Test
    void aQueueThatDoesNotExistIsNotFoundButTheDefaultQueueAlwaysIs() {
        assertThat(refusal("research", Map.of(), Map.of())).contains(new QueueRefusal(QueueAccess.NOT_FOUND,
                "queue research does not exist; it waits until the queue is created"));
        assertThat(refusal(null, Map.of(), Map.of())).isEmpty();
        assertThat(refusal("", Map.of(), Map.of())).isEmpty();
    }

    @Test
    void aQueueOutsideTheTreeIsNotFoundNamingWhy() {
        Map<String, QueueSpec> queues = new HashMap<>();
        queues.put("orphan", spec("gone", null, null));
        queues.put("deep", spec("orphan", null, null));
        queues.put("x", spec("y", null, null));
        queues.put("y", spec("x", null, null));

        assertThat(refusal("orphan", queues, Map.of())).contains(new QueueRefusal(QueueAccess.NOT_FOUND,
                "queue orphan names parent gone, which does not exist"));
        assertThat(refusal("deep", queues, Map.of())).contains(new QueueRefusal(QueueAccess.NOT_FOUND,
                "queue deep has ancestor orphan, which names parent gone, which does not exist"));
        assertThat(refusal("x", queues, Map.of())).contains(new QueueRefusal(QueueAccess.NOT_FOUND,
                "queue x is not in the queue tree: x -> y -> x is a cycle of parents"));
    }

    @Test
    void onlyLeafQueuesTakeJobsAsInVolcanosHierarchy() {
        Map<String, QueueSpec> queues = Map.of("org", spec(null, null, null), "team-a", spec("org", null, null),
                "team-b", spec("org", null, null));

        assertThat(refusal("org", queues, Map.of())).contains(new QueueRefusal(QueueAccess.NOT_LEAF,
                "queue org has child queues (team-a, team-b); only leaf queues take jobs: name one of its leaves"));
        assertThat(refusal("team-a", queues, Map.of())).isEmpty();
    }

    @Test
    void aNamespaceSelectorAdmitsOnlyTheNamespacesItSelects() {
        Map<String, QueueSpec> queues = Map.of("gpu", spec(null, null, TEAM_A));

        assertThat(refusal("gpu", queues, Map.of("team", "b"))).contains(new QueueRefusal(QueueAccess.FORBIDDEN,
                "namespace ns1 may not use queue gpu: the queue's spec.namespaceSelector does not select it; "
                        + "it waits until it does"));
        assertThat(refusal("gpu", queues, Map.of())).map(QueueRefusal::reason).contains(QueueAccess.FORBIDDEN);
        assertThat(refusal("gpu", queues, Map.of("team", "a", "other", "x"))).isEmpty();
        assertThat(refusal("gpu", Map.of("gpu", spec(null, null, new LabelSelector())), Map.of())).isEmpty();
        assertThat(refusal("gpu", Map.of("gpu", spec(null, null, null)), Map.of())).isEmpty();
    }

    @Test
    void theDefaultQueueAdmitsEveryNamespaceAndItsSelectorIsReportedAsNotHonoured() {
        Map<String, QueueSpec> queues = Map.of(Queue.DEFAULT, spec(null, null, TEAM_A));

        assertThat(refusal(null, queues, Map.of("team", "b"))).isEmpty();
        assertThat(QueueTreeValidator.validate(queues).get(Queue.DEFAULT)).containsExactly(new FieldError(
                "spec.namespaceSelector", "is not honoured on queue default, which every namespace may use; remove it"));
    }

    @Test
    void selectorExpressionsFollowKubernetesAndAnInvalidOneSelectsNothing() {
        LabelSelector in = new LabelSelectorBuilder().addNewMatchExpression().withKey("tier").withOperator("In")
                .withValues("gold", "silver").endMatchExpression().build();
        LabelSelector notIn = new LabelSelectorBuilder().addNewMatchExpression().withKey("tier").withOperator("NotIn")
                .withValues("bronze").endMatchExpression().build();
        LabelSelector exists = new LabelSelectorBuilder().addNewMatchExpression().withKey("gpu").withOperator("Exists")
                .endMatchExpression().build();
        LabelSelector absent = new LabelSelectorBuilder().addNewMatchExpression().withKey("frozen")
                .withOperator("DoesNotExist").endMatchExpression().build();
        LabelSelector bad = new LabelSelectorBuilder().addNewMatchExpression().withKey("tier").withOperator("Gt")
                .withValues("1").endMatchExpression().build();
        Map<String, String> gold = Map.of("tier", "gold", "gpu", "yes");

        for (LabelSelector selector : List.of(in, notIn, exists, absent)) {
            assertThat(refusal("q", Map.of("q", spec(null, null, selector)), gold)).as(selector.toString()).isEmpty();
        }
        assertThat(refusal("q", Map.of("q", spec(null, null, in)), Map.of("tier", "bronze"))).isPresent();
        assertThat(refusal("q", Map.of("q", spec(null, null, notIn)), Map.of("tier", "bronze"))).isPresent();
        assertThat(refusal("q", Map.of("q", spec(null, null, exists)), Map.of())).isPresent();
        assertThat(refusal("q", Map.of("q", spec(null, null, absent)), Map.of("frozen", ""))).isPresent();
        assertThat(refusal("q", Map.of("q", spec(null, null, bad)), gold)).map(QueueRefusal::reason)
                .contains(QueueAccess.FORBIDDEN);
        assertThat(QueueTreeValidator.validate(Map.of("q", spec(null, null, bad))).get("q")).containsExactly(new FieldError(
                "spec.namespaceSelector.matchExpressions[0].operator", "must be In, NotIn, Exists or DoesNotExist, got 'Gt'"));
    }

    @Test
    void aClosedQueueHoldsNewJobsAndIsCheckedAfterTheNamespace() {
        QueueRefusal closed = refusal(null, Map.of(Queue.DEFAULT, spec(null, QueueSpec.CLOSED, null)), Map.of()).orElseThrow();
        assertThat(closed).isEqualTo(new QueueRefusal(QueueAccess.CLOSED,
                "queue default is Closed: its running jobs go on, new ones wait until it is Open"));
        assertThat(closed.keepsPlace()).isTrue();

        QueueRefusal forbidden = refusal("gpu", Map.of("gpu", spec(null, QueueSpec.CLOSED, TEAM_A)), Map.of()).orElseThrow();
        assertThat(forbidden.reason()).isEqualTo(QueueAccess.FORBIDDEN);
        assertThat(forbidden.keepsPlace()).isFalse();
    }

    @Test
    void onlyTheFourQueueReasonsAreRefusalsAndAMissingReasonIsNone() {
        assertThat(QueueAccess.isRefusal(QueueAccess.FORBIDDEN)).isTrue();
        assertThat(QueueAccess.isRefusal(QueueAccess.NOT_LEAF)).isTrue();
        assertThat(QueueAccess.isRefusal("Preempted")).isFalse();
        assertThat(QueueAccess.isRefusal(null)).isFalse();
    }
}
