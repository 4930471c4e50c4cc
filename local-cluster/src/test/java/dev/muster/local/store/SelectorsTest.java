package dev.muster.local.store;

import dev.muster.local.ApiOnlyClusterTests;
import dev.muster.local.Fixtures;
import dev.muster.local.RawApi;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Watch;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Label and field selectors as the API server evaluates them, for lists, watches and collection deletes. */
@Tag("emulator")
class SelectorsTest extends ApiOnlyClusterTests {
    @BeforeAll
    static void createObjects() {
        pod("sel-a", Map.of("sel-tier", "web", "sel-zone", "a"));
        pod("sel-b", Map.of("sel-tier", "db", "sel-zone", "b"));
        pod("sel-c", Map.of("sel-tier", "cache"));
        client.bindings().inNamespace("default").resource(Fixtures.binding("sel-a", "node-0")).create();
    }

    @Test
    void fieldSelectorsSelectOnAnyFieldAndMissingFieldsAreEmpty() {
        assertThat(names(client.pods().withField("spec.nodeName", "node-0").list().getItems())).containsExactly("sel-a");
        assertThat(names(client.pods().withLabel("sel-tier").withField("spec.nodeName", "").list().getItems()))
                .containsExactlyInAnyOrder("sel-b", "sel-c");
        assertThat(names(client.pods().withLabel("sel-tier").withoutField("status.phase", "Pending").list().getItems()))
                .isEmpty();
    }

    @Test
    void setBasedLabelSelectorsWork() {
        assertThat(names(client.pods().withLabelIn("sel-tier", "web", "db").list().getItems()))
                .containsExactlyInAnyOrder("sel-a", "sel-b");
        assertThat(names(client.pods().withLabel("sel-tier").withLabelNotIn("sel-zone", "a").list().getItems()))
                .containsExactlyInAnyOrder("sel-b", "sel-c");
        assertThat(names(client.pods().withLabel("sel-tier").withoutLabel("sel-zone").list().getItems()))
                .containsExactly("sel-c");
        assertThat(names(client.pods().withLabel("sel-tier").withoutLabel("sel-zone", "b").list().getItems()))
                .containsExactlyInAnyOrder("sel-a", "sel-c");
    }

    @Test
    void watchSeesObjectsEnterAndLeaveTheSelection() {
        pod("sel-watched", Map.of("sel-watch", "yes"));
        List<String> events = new CopyOnWriteArrayList<>();
        try (Watch ignored = client.pods().withField("spec.nodeName", "node-1")
                .watch(Fixtures.watcher((action, pod) -> events.add(action + " " + pod.getMetadata().getName())))) {
            client.pods().withName("sel-watched").edit(p -> {
                p.getMetadata().getLabels().put("unrelated", "change");
                return p;
            });
            client.bindings().inNamespace("default").resource(Fixtures.binding("sel-watched", "node-1")).create();
            await().until(() -> events.contains("ADDED sel-watched"));
            // Bound to a node without a kubelet, the pod would stay Terminating: force it, as kubectl --force does.
            client.pods().withName("sel-watched").withGracePeriod(0).delete();
            await().until(() -> events.contains("DELETED sel-watched"));
        }
        assertThat(events).containsExactly("ADDED sel-watched", "DELETED sel-watched");
    }

    @Test
    void collectionDeleteRemovesOnlyTheSelection() {
        pod("sel-del-1", Map.of("sel-batch", "one"));
        pod("sel-del-2", Map.of("sel-batch", "two"));
        pod("sel-del-3", Map.of("sel-batch", "three"));

        client.pods().withLabelIn("sel-batch", "one", "three").delete();

        assertThat(names(client.pods().withLabel("sel-batch").list().getItems())).containsExactly("sel-del-2");
    }

    /** What {@code kubectl describe} sends for an object's Events, read raw and as a list of kind EventList. */
    @Test
    void eventsAreSelectedByTheirInvolvedObjectReasonAndType() {
        event("sel-ev-1", "Job", "train", "uid-1", "Warning", "SelPodFailed");
        event("sel-ev-2", "Job", "train", "uid-1", "Normal", "Created");
        event("sel-ev-3", "Job", "other", "uid-2", "Warning", "SelPodFailed");
        event("sel-ev-4", "PodGroup", "train", "uid-3", "Warning", "SelPodFailed");

        RawApi.Response described = api.get("/api/v1/namespaces/default/events?fieldSelector="
                + "involvedObject.name%3Dtrain,involvedObject.namespace%3Ddefault,involvedObject.kind%3DJob,"
                + "involvedObject.uid%3Duid-1&limit=500");

        assertThat(described.body().path("kind").asText()).isEqualTo("EventList");
        List<String> describedNames = new java.util.ArrayList<>();
        described.body().path("items").forEach(e -> describedNames.add(e.path("metadata").path("name").asText()));
        assertThat(describedNames).containsExactlyInAnyOrder("sel-ev-1", "sel-ev-2");
        assertThat(eventNames(client.v1().events().withField("reason", "SelPodFailed").withField("type", "Warning")))
                .containsExactlyInAnyOrder("sel-ev-1", "sel-ev-3", "sel-ev-4");
        assertThat(eventNames(client.v1().events().withField("involvedObject.kind", "PodGroup")))
                .containsExactly("sel-ev-4");
        assertThat(eventNames(client.v1().events().withField("source", "muster-scheduler")))
                .as("the field label source is source.component, as kube-apiserver has it").containsExactly("sel-ev-4");
    }

    /** As kube-apiserver's fields.ParseSelector: {@code \\,} and {@code \\=} in a value are that character. */
    @Test
    void aFieldSelectorValueMayHoldEscapedCommasAndEqualsSigns() {
        event("sel-esc-1", "Job", "esc", "uid-9", "Warning", "Ready,Set=Go");
        event("sel-esc-2", "Job", "esc", "uid-9", "Warning", "Ready");

        RawApi.Response escaped = api.get("/api/v1/namespaces/default/events?fieldSelector="
                + URLEncoder.encode("reason=Ready\\,Set\\=Go,involvedObject.name=esc", StandardCharsets.UTF_8));
        RawApi.Response badEscape = api.get("/api/v1/namespaces/default/events?fieldSelector="
                + URLEncoder.encode("reason=Ready\\x", StandardCharsets.UTF_8));

        List<String> selected = new java.util.ArrayList<>();
        escaped.body().path("items").forEach(e -> selected.add(e.path("metadata").path("name").asText()));
        assertThat(selected).containsExactly("sel-esc-1");
        assertThat(badEscape.code()).isEqualTo(400);
        assertThat(badEscape.body().path("message").asText()).contains("invalid escape sequence");
    }

    @Test
    void malformedSelectorIsABadRequest() {
        assertThatThrownBy(() -> client.pods().withLabelSelector("a in (b").list())
                .hasMessageContaining("400");
    }

    private static void pod(String name, Map<String, String> labels) {
        Pod pod = Fixtures.pod(name);
        pod.getMetadata().setLabels(new java.util.HashMap<>(labels));
        client.resource(pod).create();
    }

    private static void event(String name, String kind, String object, String uid, String type, String reason) {
        client.v1().events().inNamespace("default").resource(new io.fabric8.kubernetes.api.model.EventBuilder()
                .withNewMetadata().withName(name).endMetadata()
                .withNewInvolvedObject().withKind(kind).withName(object).withNamespace("default").withUid(uid)
                .endInvolvedObject().withType(type).withReason(reason).withMessage(reason + " of " + object)
                .withNewSource().withComponent(kind.equals("PodGroup") ? "muster-scheduler" : "muster-controller")
                .endSource().build())
                .create();
    }

    private static List<String> eventNames(
            io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable<io.fabric8.kubernetes.api.model.Event,
                    io.fabric8.kubernetes.api.model.EventList, ?> events) {
        return events.list().getItems().stream().map(e -> e.getMetadata().getName()).toList();
    }

    private static List<String> names(List<Pod> pods) {
        return pods.stream().map(p -> p.getMetadata().getName()).toList();
    }
}
