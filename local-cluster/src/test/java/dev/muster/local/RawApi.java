package dev.muster.local;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

/** Plain HTTP against the emulator, for endpoints fabric8 has no DSL for and for exact status codes. */
public final class RawApi {
    /** A response: its code, its body, and its {@code Warning} headers. */
    public record Response(int code, JsonNode body, List<String> warnings) {
    }

    /** A response read as text: its code, its {@code Content-Type} and its body. */
    public record Text(int code, String contentType, String body) {
    }

    private final HttpClient http = HttpClient.newHttpClient();
    private final String url;

    public RawApi(LocalCluster cluster) {
        this.url = cluster.url();
    }

    public Response get(String path) {
        return send(HttpRequest.newBuilder(URI.create(url + path)).GET().build());
    }

    public Response get(String path, String accept) {
        return send(HttpRequest.newBuilder(URI.create(url + path)).header("Accept", accept).GET().build());
    }

    /** A GET whose answer is read as text, such as a pod's log. */
    public Text getText(String path) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url + path)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Text(response.statusCode(), response.headers().firstValue("Content-Type").orElse(null),
                    response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public Response post(String path, Object body) {
        return send(HttpRequest.newBuilder(URI.create(url + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Serialization.asJson(body))).build());
    }

    public Response put(String path, Object body) {
        return send(HttpRequest.newBuilder(URI.create(url + path)).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(Serialization.asJson(body))).build());
    }

    public Response patch(String path, String contentType, String body) {
        return send(HttpRequest.newBuilder(URI.create(url + path)).header("Content-Type", contentType)
                .method("PATCH", HttpRequest.BodyPublishers.ofString(body)).build());
    }

    /** A DELETE with a {@code DeleteOptions} body. */
    public Response delete(String path, Object deleteOptions) {
        return send(HttpRequest.newBuilder(URI.create(url + path)).header("Content-Type", "application/json")
                .method("DELETE", HttpRequest.BodyPublishers.ofString(Serialization.asJson(deleteOptions))).build());
    }

    private Response send(HttpRequest request) {
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            JsonNode body = response.body().isEmpty() ? null : Serialization.jsonMapper().readTree(response.body());
            return new Response(response.statusCode(), body, response.headers().allValues("Warning"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
