package dev.muster.support.event;

import dev.muster.api.KubeTime;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import static dev.muster.support.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@Tag("emulator")
class EventRecorderTest {

    private static int utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    @Test
    void leavesAMessageThatFitsAlone() {
        String fits = "x".repeat(EventRecorder.MAX_MESSAGE_BYTES);

        assertThat(EventRecorder.truncate(fits)).isSameAs(fits);
    }

    @Test
    void cutsALongMultiByteMessageOnACharacterBoundaryWithinTheLimit() {
        // 3-byte and 4-byte characters, so that a cut by bytes would land inside one.
        String message = "€😀".repeat(400);

        String cut = EventRecorder.truncate(message);

        assertThat(utf8(cut)).isLessThanOrEqualTo(EventRecorder.MAX_MESSAGE_BYTES).isGreaterThan(1000);
        assertThat(cut).endsWith(" …");
        assertThat(message).startsWith(cut.substring(0, cut.length() - 2));
        assertThat(new String(cut.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)).isEqualTo(cut);
    }

    @Test
    void recordsTheEventOfAClusterScopedObjectInTheDefaultNamespaceAsClientGoDoes() {
        try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(0))) {
            var client = cluster.client();
            PriorityClass about = client.scheduling().v1().priorityClasses().resource(new PriorityClassBuilder()
                    .withNewMetadata().withName("about").endMetadata().withValue(7).build()).create();

            new EventRecorder(client, "test").record(about, EventRecorder.WARNING, "Told", "about a cluster-scoped object");

            List<Event> events = await().atMost(PATIENCE)
                    .until(() -> client.v1().events().inNamespace("default").list().getItems(), e -> !e.isEmpty());
            assertThat(events).singleElement().satisfies(e -> {
                assertThat(e.getReason()).isEqualTo("Told");
                assertThat(e.getInvolvedObject().getKind()).isEqualTo("PriorityClass");
                assertThat(e.getInvolvedObject().getName()).isEqualTo("about");
                assertThat(e.getInvolvedObject().getNamespace()).isNullOrEmpty();
            });
        }
    }

    @Test
    void writesTimesAsTheApiServerDecodesThem() {
        // Go decodes a MicroTime with exactly six digits of fraction; Instant.toString() gives up to nine.
        Instant at = Instant.parse("2026-11-28T14:02:25.538215983Z");

        assertThat(KubeTime.formatMicro(at)).isEqualTo("2026-11-28T14:02:25.538215Z");
        assertThat(KubeTime.formatMicro(Instant.parse("2026-11-28T14:02:25Z"))).isEqualTo("2026-11-28T14:02:25.000000Z");
        try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(0))) {
            var client = cluster.client();
            PriorityClass about = client.scheduling().v1().priorityClasses().resource(new PriorityClassBuilder()
                    .withNewMetadata().withName("timed").endMetadata().withValue(7).build()).create();

            new EventRecorder(client, "test").record(about, EventRecorder.NORMAL, "Timed", "written with its times");

            Event written = await().atMost(PATIENCE)
                    .until(() -> client.v1().events().inNamespace("default").list().getItems(), e -> !e.isEmpty()).get(0);
            assertThat(written.getEventTime().getTime()).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}Z");
            assertThat(written.getFirstTimestamp()).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z");
        }
    }

    @Test
    void recordsAnEventWhoseMessageIsTooLongForTheApiServer() {
        try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(0))) {
            var client = cluster.client();
            ConfigMap about = client.configMaps().inNamespace("default").resource(new ConfigMapBuilder()
                    .withNewMetadata().withName("about").withNamespace("default").endMetadata().build()).create();

            new EventRecorder(client, "test").record(about, EventRecorder.WARNING, "Long", "ü".repeat(3000));

            List<Event> events = await().atMost(PATIENCE)
                    .until(() -> client.v1().events().inNamespace("default").list().getItems(), e -> !e.isEmpty());
            assertThat(events).singleElement().satisfies(e -> {
                assertThat(e.getReason()).isEqualTo("Long");
                assertThat(utf8(e.getMessage())).isLessThanOrEqualTo(EventRecorder.MAX_MESSAGE_BYTES);
                assertThat(e.getMessage()).startsWith("üüü").endsWith(" …");
            });
        }
    }

    @Test
    void aRepeatedReasonOnOneObjectIsOneEventWithACount() {
        try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(0))) {
            var client = cluster.client();
            ConfigMap about = client.configMaps().inNamespace("default").resource(new ConfigMapBuilder()
                    .withNewMetadata().withName("about").withNamespace("default").endMetadata().build()).create();
            EventRecorder recorder = new EventRecorder(client, "test");

            for (int i = 0; i < 3; i++) {
                recorder.record(about, EventRecorder.WARNING, "FailedScheduling", "0/3 nodes are available");
            }
            recorder.record(about, EventRecorder.NORMAL, "Scheduled", "placed on node-1");

            // Written off this thread: wait for the last write, which its object's lane makes after the others.
            List<Event> events = await().atMost(PATIENCE).until(
                    () -> client.v1().events().inNamespace("default").list().getItems(),
                    written -> written.stream().anyMatch(e -> e.getReason().equals("Scheduled"))
                            && written.stream().anyMatch(e -> Integer.valueOf(3).equals(e.getCount())));
            assertThat(events).hasSize(2);
            assertThat(events).filteredOn(e -> e.getReason().equals("FailedScheduling")).singleElement()
                    .satisfies(e -> {
                        assertThat(e.getCount()).isEqualTo(3);
                        assertThat(e.getMessage()).isEqualTo("0/3 nodes are available");
                        assertThat(Instant.parse(e.getLastTimestamp()))
                                .isAfterOrEqualTo(Instant.parse(e.getFirstTimestamp()));
                    });
            assertThat(events).filteredOn(e -> e.getReason().equals("Scheduled")).singleElement()
                    .satisfies(e -> assertThat(e.getCount()).isEqualTo(1));
        }
    }

    @Test
    void aRepeatOfAnEventThatIsGoneWritesItAgainWithItsCount() {
        try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(0))) {
            var client = cluster.client();
            ConfigMap about = client.configMaps().inNamespace("default").resource(new ConfigMapBuilder()
                    .withNewMetadata().withName("about").withNamespace("default").endMetadata().build()).create();
            EventRecorder recorder = new EventRecorder(client, "test");
            recorder.record(about, EventRecorder.WARNING, "Stuck", "waiting");
            await().atMost(PATIENCE).until(() -> client.v1().events().inNamespace("default").list().getItems().size() == 1);
            // As the API server's time to live does to every Event.
            client.v1().events().inNamespace("default").delete();
            await().atMost(PATIENCE)
                    .until(() -> client.v1().events().inNamespace("default").list().getItems().isEmpty());

            recorder.record(about, EventRecorder.WARNING, "Stuck", "waiting");

            await().atMost(PATIENCE).untilAsserted(() -> assertThat(
                    client.v1().events().inNamespace("default").list().getItems()).singleElement()
                    .satisfies(e -> assertThat(e.getCount()).isEqualTo(2)));
        }
    }
}
