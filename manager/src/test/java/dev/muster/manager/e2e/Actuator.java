package dev.muster.manager.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** A manager's Actuator endpoints over HTTP, as an operator's curl sees them. */
final class Actuator {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final String base;

    Actuator(ConfigurableApplicationContext manager) {
        base = "http://127.0.0.1:" + manager.getEnvironment().getProperty("local.server.port") + "/actuator/";
    }

    /** GET of {@code /actuator/PATH}. */
    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The JSON body of {@code /actuator/PATH}, which must answer 200. */
    JsonNode json(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = get(path);
        if (response.statusCode() != 200) {
            throw new AssertionError("GET /actuator/" + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }
}
