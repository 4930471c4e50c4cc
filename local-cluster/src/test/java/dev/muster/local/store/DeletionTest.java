package dev.muster.local.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.local.protocol.Json;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Deletion} against kube-apiserver's rules: {@code rest.BeforeDelete}, the pod strategy's
 * {@code CheckGracefulDelete} and the generic store's handling of finalizers.
 */
class DeletionTest {
    private static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");

    @Test
    void aRunningPodBoundToANodeIsMarkedWithItsTerminationGracePeriod() {
        ObjectNode pod = pod("node-0", "Running");
        pod.withObjectProperty("spec").put("terminationGracePeriodSeconds", 45);

        ObjectNode marked = marked(Deletion.of(pod, true, null, NOW));

        assertThat(marked.at("/metadata/deletionTimestamp").asText()).isEqualTo("2026-11-24T12:00:45Z");
        assertThat(marked.at("/metadata/deletionGracePeriodSeconds").asLong()).isEqualTo(45);
        assertThat(pod.at("/metadata/deletionTimestamp").isMissingNode()).as("the stored object is not changed").isTrue();
    }

    @Test
    void aPodWithoutTerminationGracePeriodGetsThirtySeconds() {
        ObjectNode marked = marked(Deletion.of(pod("node-0", "Pending"), true, null, NOW));

        assertThat(marked.at("/metadata/deletionGracePeriodSeconds").asLong()).isEqualTo(30);
    }

    @Test
    void theRequestedGracePeriodWinsOverThePodsAndANegativeOneCountsAsOne() {
        ObjectNode pod = pod("node-0", "Running");
        pod.withObjectProperty("spec").put("terminationGracePeriodSeconds", 45);

        assertThat(marked(Deletion.of(pod, true, 5L, NOW)).at("/metadata/deletionGracePeriodSeconds").asLong()).isEqualTo(5);
        assertThat(marked(Deletion.of(pod, true, -3L, NOW)).at("/metadata/deletionGracePeriodSeconds").asLong()).isEqualTo(1);
    }

    @Test
    void gracePeriodZeroAnUnboundPodAndAFinishedPodAreRemovedAtOnce() {
        assertThat(Deletion.of(pod("node-0", "Running"), true, 0L, NOW)).isInstanceOf(Deletion.Remove.class);
        assertThat(Deletion.of(pod("", "Pending"), true, null, NOW)).isInstanceOf(Deletion.Remove.class);
        assertThat(Deletion.of(pod("node-0", "Succeeded"), true, 30L, NOW)).isInstanceOf(Deletion.Remove.class);
        assertThat(Deletion.of(pod("node-0", "Failed"), true, null, NOW)).isInstanceOf(Deletion.Remove.class);
    }

    @Test
    void otherObjectsHaveNoGracePeriod() {
        assertThat(Deletion.of(pod("node-0", "Running"), false, 30L, NOW)).isInstanceOf(Deletion.Remove.class);
    }

    @Test
    void markingForDeletionIncrementsANonZeroGeneration() {
        ObjectNode pod = pod("node-0", "Running");
        pod.withObjectProperty("metadata").put("generation", 3);

        assertThat(marked(Deletion.of(pod, true, null, NOW)).at("/metadata/generation").asLong()).isEqualTo(4);
    }

    @Test
    void anObjectWithFinalizersIsMarkedWithGracePeriodZeroAndStays() {
        ObjectNode object = pod("", "Pending");
        object.withObjectProperty("metadata").putArray("finalizers").add("example.com/cleanup");

        ObjectNode marked = marked(Deletion.of(object, true, null, NOW));

        assertThat(marked.at("/metadata/deletionTimestamp").asText()).isEqualTo("2026-11-24T12:00:00Z");
        assertThat(marked.at("/metadata/deletionGracePeriodSeconds").asLong()).isZero();
        assertThat(Deletion.of(marked, true, null, NOW)).isInstanceOf(Deletion.Unchanged.class);
    }

    @Test
    void aSecondDeleteMayShortenTheGracePeriodButNeverLengthenIt() {
        ObjectNode marked = marked(Deletion.of(pod("node-0", "Running"), true, 60L, NOW));

        assertThat(Deletion.of(marked, true, 120L, NOW.plusSeconds(10))).isInstanceOf(Deletion.Unchanged.class);
        assertThat(Deletion.of(marked, true, null, NOW.plusSeconds(10))).isInstanceOf(Deletion.Unchanged.class);
        ObjectNode shortened = marked(Deletion.of(marked, true, 10L, NOW.plusSeconds(10)));
        assertThat(shortened.at("/metadata/deletionTimestamp").asText())
                .as("the deadline moves by the difference, counted from the first deletion")
                .isEqualTo("2026-11-24T12:00:10Z");
        assertThat(shortened.at("/metadata/deletionGracePeriodSeconds").asLong()).isEqualTo(10);
        assertThat(Deletion.of(shortened, true, 0L, NOW.plusSeconds(11))).isInstanceOf(Deletion.Remove.class);
    }

    @Test
    void gracePeriodZeroOnAPodWithFinalizersLeavesItMarkedWithGracePeriodZero() {
        ObjectNode pod = pod("node-0", "Running");
        pod.withObjectProperty("metadata").putArray("finalizers").add("example.com/cleanup");
        ObjectNode marked = marked(Deletion.of(pod, true, null, NOW));

        ObjectNode forced = marked(Deletion.of(marked, true, 0L, NOW));

        assertThat(forced.at("/metadata/deletionGracePeriodSeconds").asLong()).isZero();
        assertThat(Deletion.completedBy(forced, pod("node-0", "Failed"))).as("removing the finalizer removes it").isTrue();
        assertThat(Deletion.completedBy(marked, pod("node-0", "Failed")))
                .as("not while a grace period is left").isFalse();
        assertThat(Deletion.completedBy(forced, forced)).as("not while a finalizer is left").isFalse();
    }

    private static ObjectNode marked(Deletion.Outcome outcome) {
        assertThat(outcome).isInstanceOf(Deletion.Mark.class);
        return ((Deletion.Mark) outcome).object();
    }

    private static ObjectNode pod(String nodeName, String phase) {
        ObjectNode pod = Json.stored("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"uid\":\"u\"}}");
        pod.withObjectProperty("spec").put("nodeName", nodeName);
        pod.withObjectProperty("status").put("phase", phase);
        return pod;
    }
}
