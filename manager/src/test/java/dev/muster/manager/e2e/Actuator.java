package dev.muster.manager.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.muster.local.server.ClusterAccess;
import dev.muster.local.LocalCluster;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

/**
 * A manager's Actuator endpoints over HTTP, as an operator's curl sees them, with a bearer token the cluster
 * knows (every endpoint but health wants one).
 */
final class Actuator {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final String base;
    private final String token;

    /** With the token of a user who may do everything. */
    Actuator(ConfigurableApplicationContext manager, LocalCluster cluster) {
        this(manager, cluster.access().mintToken(ADMIN));
    }

    /** With {@code token}; none when null. */
    Actuator(ConfigurableApplicationContext manager, String token) {
        base = "http://127.0.0.1:" + manager.getEnvironment().getProperty("local.server.port") + "/actuator/";
        this.token = token;
    }

    /** A user the local cluster's default authorizer lets do everything. */
    static final ClusterAccess.User ADMIN = new ClusterAccess.User("admin", List.of("system:masters"));

    /** GET of {@code /actuator/PATH}. */
    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
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
