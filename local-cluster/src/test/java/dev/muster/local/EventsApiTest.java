package dev.muster.local;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * core/v1 and events.k8s.io/v1 Events are one store seen two ways, as on kube-apiserver: what a controller records
 * with client-go's newer recorder (events.k8s.io, as kube-scheduler does) is what {@code kubectl describe} lists
 * (core), and the other way round.
 */
@Tag("emulator")
class EventsApiTest extends ApiOnlyClusterTests {
    private static final String NS = "events-view";

    @BeforeAll
    static void namespace() {
        Namespace namespace = new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build();
        client.namespaces().resource(namespace).create();
    }

    @Test
    void aCoreEventIsReadThroughEventsV1() {
        client.v1().events().inNamespace(NS).resource(coreEvent("core-written", "pod-a", "Pulled")).create();

        io.fabric8.kubernetes.api.model.events.v1.Event viewed =
                client.events().v1().events().inNamespace(NS).withName("core-written").get();

        assertThat(viewed.getApiVersion()).isEqualTo("events.k8s.io/v1");
        assertThat(viewed.getRegarding().getName()).isEqualTo("pod-a");
        assertThat(viewed.getNote()).isEqualTo("image pulled");
        assertThat(viewed.getDeprecatedCount()).isEqualTo(3);
        assertThat(viewed.getReportingController()).isEqualTo("kubelet");
    }

    @Test
    void anEventsV1EventIsACoreEvent() {
        client.events().v1().events().inNamespace(NS).resource(v1Event("v1-written", "pod-b", "Scheduled")).create();

        List<Event> listed = client.v1().events().inNamespace(NS)
                .withField("involvedObject.name", "pod-b").list().getItems();

        assertThat(listed).singleElement().satisfies(event -> {
            assertThat(event.getApiVersion()).isEqualTo("v1");
            assertThat(event.getMetadata().getName()).isEqualTo("v1-written");
            assertThat(event.getInvolvedObject().getKind()).isEqualTo("Pod");
            assertThat(event.getMessage()).isEqualTo("placed on node-0");
            assertThat(event.getReportingComponent()).isEqualTo("muster-scheduler");
            assertThat(event.getEventTime().getTime()).isEqualTo("2026-11-28T10:00:00.000000Z");
        });
    }

    @Test
    void eventsV1FieldSelectorsUseItsOwnLabels() {
        client.v1().events().inNamespace(NS).resource(coreEvent("selected", "pod-c", "Killing")).create();
        client.v1().events().inNamespace(NS).resource(coreEvent("not-selected", "pod-d", "Killing")).create();

        List<io.fabric8.kubernetes.api.model.events.v1.Event> selected = client.events().v1().events().inNamespace(NS)
                .withField("regarding.name", "pod-c").withField("reason", "Killing").list().getItems();

        assertThat(selected).extracting(e -> e.getMetadata().getName()).containsExactly("selected");
        RawApi.Response refused = api.get("/apis/events.k8s.io/v1/namespaces/" + NS
                + "/events?fieldSelector=involvedObject.name%3Dpod-c");
        assertThat(refused.code()).isEqualTo(400);
        assertThat(refused.body().path("message").asText()).isEqualTo("field label not supported: involvedObject.name");
    }

    @Test
    void anEditThroughEventsV1ChangesTheCoreEvent() {
        client.v1().events().inNamespace(NS).resource(coreEvent("edited", "pod-e", "BackOff")).create();

        // fabric8's edit sends a JSON patch whose paths name events.k8s.io's fields.
        client.events().v1().events().inNamespace(NS).withName("edited")
                .edit(event -> {
                    event.setNote("back-off restarting");
                    event.setDeprecatedCount(7);
                    return event;
                });

        Event core = client.v1().events().inNamespace(NS).withName("edited").get();
        assertThat(core.getMessage()).isEqualTo("back-off restarting");
        assertThat(core.getCount()).isEqualTo(7);
        assertThat(core.getAdditionalProperties()).doesNotContainKeys("note", "deprecatedCount");
    }

    @Test
    void anEventsV1WatchSeesCoreWrites() {
        List<io.fabric8.kubernetes.api.model.events.v1.Event> seen = new CopyOnWriteArrayList<>();
        try (Watch ignored = client.events().v1().events().inNamespace(NS).withField("regarding.name", "pod-w")
                .watch(new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, io.fabric8.kubernetes.api.model.events.v1.Event event) {
                        seen.add(event);
                    }

                    @Override
                    public void onClose(WatcherException cause) {
                        // the test closes it
                    }
                })) {
            client.v1().events().inNamespace(NS).resource(coreEvent("other", "pod-x", "Pulled")).create();
            client.v1().events().inNamespace(NS).resource(coreEvent("watched", "pod-w", "Pulled")).create();

            await().untilAsserted(() -> assertThat(seen).extracting(e -> e.getMetadata().getName()).contains("watched"));
        }
        assertThat(seen).extracting(e -> e.getMetadata().getName()).containsOnly("watched");
        assertThat(seen.get(0).getNote()).isEqualTo("image pulled");
        assertThat(seen.get(0).getApiVersion()).isEqualTo("events.k8s.io/v1");
    }

    private static Event coreEvent(String name, String podName, String reason) {
        return new EventBuilder().withNewMetadata().withName(name).withNamespace(NS).endMetadata()
                .withInvolvedObject(new ObjectReferenceBuilder().withKind("Pod").withName(podName).withNamespace(NS)
                        .build())
                .withReason(reason).withMessage("image pulled").withType("Normal").withCount(3)
                .withReportingComponent("kubelet").withReportingInstance("node-0").build();
    }

    private static io.fabric8.kubernetes.api.model.events.v1.Event v1Event(String name, String podName, String reason) {
        return new io.fabric8.kubernetes.api.model.events.v1.EventBuilder().withNewMetadata().withName(name)
                .withNamespace(NS).endMetadata()
                .withRegarding(new ObjectReferenceBuilder().withKind("Pod").withName(podName).withNamespace(NS).build())
                .withReason(reason).withNote("placed on node-0").withType("Normal").withAction("Binding")
                .withEventTime(new MicroTime("2026-11-28T10:00:00.000000Z"))
                .withReportingController("muster-scheduler").withReportingInstance("muster-0").build();
    }
}
