package dev.muster.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.muster.local.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Watches over plain HTTP, as kube-apiserver serves them to kubectl and client-go ("Efficient detection of
 * changes" in the Kubernetes API concepts): the response starts at once, each event is one line of JSON,
 * {@code timeoutSeconds} ends the stream, and with {@code Accept: ...;as=Table} each event carries a Table.
 */
@Tag("emulator")
class StreamedWatchTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static LocalCluster cluster;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(PATIENCE).build();

    @BeforeAll
    static void start() {
        cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(1));
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    private static void configMap(String name) {
        cluster.client().configMaps().inNamespace("default").resource(new ConfigMapBuilder().withNewMetadata()
                .withName(name).endMetadata().addToData("k", "v").build()).create();
    }

    private HttpResponse<InputStream> watch(String query, String accept) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(cluster.url() + "/api/v1/namespaces/default/"
                + query)).timeout(PATIENCE);
        if (accept != null) {
            request.header("Accept", accept);
        }
        // Returns once the status line and headers have arrived: before any event, the API server's headers.
        return http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    }

    private static JsonNode nextEvent(BufferedReader lines) throws Exception {
        String line = lines.readLine();
        assertThat(line).as("the stream ended early").isNotNull();
        return JSON.readTree(line);
    }

    @Test
    void eventsArriveOneJsonLineEachOnAStreamThatStartsAtOnce() throws Exception {
        configMap("streamed-a");
        HttpResponse<InputStream> response = watch("configmaps?watch=true&fieldSelector=metadata.name%3Dstreamed-b",
                null);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            configMap("streamed-b");
            JsonNode event = nextEvent(lines);
            assertThat(event.path("type").asText()).isEqualTo("ADDED");
            assertThat(event.path("object").path("metadata").path("name").asText()).isEqualTo("streamed-b");

            cluster.client().configMaps().inNamespace("default").withName("streamed-b").delete();
            assertThat(nextEvent(lines).path("type").asText()).isEqualTo("DELETED");
        }
    }

    /**
     * client-go's WatchList (on by default since 1.35, what kubectl wait uses): the initial events, then a
     * BOOKMARK of the kind carrying the state's resourceVersion and {@code k8s.io/initial-events-end: "true"},
     * then changes, as kube-apiserver's watch cache sends them.
     */
    @Test
    void aStreamingListEndsItsInitialEventsWithABookmark() throws Exception {
        configMap("listed-a");
        configMap("listed-b");
        HttpResponse<InputStream> response = watch("configmaps?watch=true&sendInitialEvents=true"
                + "&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&labelSelector=", null);
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            java.util.List<String> added = new java.util.ArrayList<>();
            JsonNode event = nextEvent(lines);
            while (event.path("type").asText().equals("ADDED")) {
                added.add(event.path("object").path("metadata").path("name").asText());
                event = nextEvent(lines);
            }
            assertThat(added).contains("listed-a", "listed-b");
            assertThat(event.path("type").asText()).isEqualTo("BOOKMARK");
            JsonNode bookmark = event.path("object");
            assertThat(bookmark.path("kind").asText()).isEqualTo("ConfigMap");
            assertThat(bookmark.path("apiVersion").asText()).isEqualTo("v1");
            assertThat(bookmark.path("metadata").path("annotations").path("k8s.io/initial-events-end").asText())
                    .isEqualTo("true");
            long bookmarkVersion = bookmark.path("metadata").path("resourceVersion").asLong();
            String latest = cluster.client().configMaps().inNamespace("default").list().getMetadata().getResourceVersion();
            assertThat(bookmarkVersion).isPositive().isLessThanOrEqualTo(Long.parseLong(latest));

            configMap("listed-c");
            JsonNode next = nextEvent(lines);
            assertThat(next.path("type").asText()).isEqualTo("ADDED");
            assertThat(next.path("object").path("metadata").path("name").asText()).isEqualTo("listed-c");
            assertThat(next.path("object").path("metadata").path("resourceVersion").asLong()).isGreaterThan(bookmarkVersion);
        }
    }

    @Test
    void aStreamingListWithoutNotOlderThanIsInvalidAsOnTheApiServer() throws Exception {
        HttpResponse<InputStream> response = watch("configmaps?watch=true&sendInitialEvents=true&allowWatchBookmarks=true",
                null);

        try (InputStream body = response.body()) {
            assertThat(response.statusCode()).isEqualTo(422);
            assertThat(new String(body.readAllBytes(), StandardCharsets.UTF_8))
                    .contains("sendInitialEvents requires setting resourceVersionMatch to NotOlderThan");
        }
    }

    @Test
    void timeoutSecondsEndsTheStream() throws Exception {
        HttpResponse<InputStream> response = watch("configmaps?watch=true&timeoutSeconds=1&fieldSelector="
                + "metadata.name%3Dnobody", null);

        try (InputStream body = response.body()) {
            CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> {
                try {
                    return body.readAllBytes();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            assertThat(read.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("no event, then the end").isEmpty();
        }
    }

    @Test
    void kubectlGetWatchGetsTableRows() throws Exception {
        configMap("tabled");
        // What kubectl get pods -w asks for.
        HttpResponse<InputStream> response = watch("pods?watch=true",
                "application/json;as=Table;v=v1;g=meta.k8s.io,application/json");
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            cluster.client().pods().inNamespace("default").resource(new PodBuilder()
                    .withNewMetadata().withName("tabled-pod").endMetadata().withNewSpec().addNewContainer()
                    .withName("c").withImage("busybox").endContainer().endSpec().build()).create();
            JsonNode event = nextEvent(lines);

            assertThat(event.path("type").asText()).isEqualTo("ADDED");
            assertThat(event.path("object").path("kind").asText()).isEqualTo("Table");
            assertThat(event.path("object").path("columnDefinitions").findValuesAsText("name")).contains("Name", "Status");
            assertThat(event.path("object").path("rows").get(0).path("cells").get(0).asText()).isEqualTo("tabled-pod");
        }
    }
}
