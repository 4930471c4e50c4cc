package dev.muster.api.scheduling.v1alpha1;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.muster.api.scheduling.v1alpha1.QueueTreeValidatorTest.spec;
import static org.assertj.core.api.Assertions.assertThat;

class QueueAncestryTest {

    @Test
    void walksUpToTheTop() {
        Map<String, QueueSpec> specs = Map.of("org", spec(null, Map.of(), Map.of()), "team", spec("org", Map.of(), Map.of()),
                "ml", spec("team", Map.of(), Map.of()));

        QueueAncestry ancestry = QueueAncestry.of("ml", specs);

        assertThat(ancestry.path()).containsExactly("ml", "team", "org");
        assertThat(ancestry.reachesTop()).isTrue();
        assertThat(ancestry.cycle()).isEmpty();
    }

    @Test
    void stopsAtAMissingParent() {
        QueueAncestry ancestry = QueueAncestry.of("ml", Map.of("ml", spec("team", Map.of(), Map.of()),
                "team", spec("gone", Map.of(), Map.of())));

        assertThat(ancestry.path()).containsExactly("ml", "team");
        assertThat(ancestry.missingParent()).isEqualTo("gone");
        assertThat(ancestry.reachesTop()).isFalse();
    }

    @Test
    void findsACycleAboveTheQueue() {
        Map<String, QueueSpec> specs = new HashMap<>();
        specs.put("c", spec("a", Map.of(), Map.of()));
        specs.put("a", spec("b", Map.of(), Map.of()));
        specs.put("b", spec("a", Map.of(), Map.of()));

        QueueAncestry ancestry = QueueAncestry.of("c", specs);

        assertThat(ancestry.cycleStart()).isEqualTo("a");
        assertThat(ancestry.cycle()).containsExactly("a", "b");
        assertThat(ancestry.reachesTop()).isFalse();
    }

    @Test
    void anEmptyParentIsTheTop() {
        QueueAncestry ancestry = QueueAncestry.of("team", Map.of("team", spec("", Map.of(), Map.of())));

        assertThat(ancestry.path()).containsExactly("team");
        assertThat(ancestry.reachesTop()).isTrue();
    }

    @Test
    void childrenOfExistingParentsInNameOrderNeverItself() {
        Map<String, QueueSpec> specs = new HashMap<>();
        specs.put("org", null);
        specs.put("zeta", spec("org", Map.of(), Map.of()));
        specs.put("alpha", spec("org", Map.of(), Map.of()));
        specs.put("orphan", spec("gone", Map.of(), Map.of()));
        specs.put("self", spec("self", Map.of(), Map.of()));

        assertThat(QueueAncestry.children(specs)).isEqualTo(Map.of("org", List.of("alpha", "zeta")));
    }
}
