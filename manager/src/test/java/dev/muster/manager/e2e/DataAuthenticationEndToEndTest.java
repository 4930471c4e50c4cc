package dev.muster.manager.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.local.server.ApiRequests;
import dev.muster.local.server.ClusterAccess;
import dev.muster.local.LocalClusterConfig;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import static dev.muster.manager.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Who may read the dashboard's data and the data endpoints, with authentication at its default (on), through
 * the real review flow: the manager asks the local cluster's TokenReview and SubjectAccessReview over HTTP,
 * which answer from the tokens and the authorizer this test gives it. Alice may list Jobs in {@code team-a}
 * only, Bob may do nothing, the admin everything, and Prometheus may get {@code /actuator/prometheus}.
 */
@Tag("emulator")
class DataAuthenticationEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String JOBS = "batch.muster.dev";

    private static ManagerOnLocalCluster env;
    private static String base;
    private static String alice;
    private static String bob;
    private static String admin;
    private static String prometheus;

    @BeforeAll
    static void start() {
        env = new ManagerOnLocalCluster(LocalClusterConfig.defaults().withNodes(1));
        ClusterAccess access = env.cluster.access();
        alice = access.mintToken(new ClusterAccess.User("alice", List.of("team-a-devs", "system:authenticated")));
        bob = access.mintToken(new ClusterAccess.User("bob", List.of("system:authenticated")));
        admin = access.mintToken(new ClusterAccess.User("admin", List.of("system:masters")));
        prometheus = access.mintToken(new ClusterAccess.User("system:serviceaccount:monitoring:prometheus", List.of()));
        access.authorizeWith(request -> request.user().groups().contains("system:masters")
                || request.isResourceRequest() && request.user().groups().contains("team-a-devs")
                && request.verb().equals("list") && request.group().equals(JOBS) && request.resource().equals("jobs")
                && request.namespace().equals("team-a")
                || !request.isResourceRequest() && request.user().name().endsWith(":prometheus")
                && request.verb().equals("get") && request.path().equals("/actuator/prometheus"));
        base = "http://127.0.0.1:" + env.manager.getEnvironment().getProperty("local.server.port");
        for (String namespace : List.of("team-a", "team-b")) {
            env.client().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace)
                    .endMetadata().build()).create();
            env.client().resource(job(namespace, "train-" + namespace)).create();
        }
        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(names(json("/actuator/jobs", admin))).contains("train-team-a", "train-team-b"));
    }

    @AfterAll
    static void stop() {
        env.close();
    }

    @Test
    void withoutAnAcceptedTokenEveryDataPathAnswers401AndHealthAndThePageStayOpen() throws Exception {
        for (String path : List.of("/dashboard/api/jobs", "/dashboard/api/queues", "/dashboard/api/queue",
                "/dashboard/api/nodes", "/dashboard/api/jobs/team-a/train-team-a", "/actuator/jobs",
                "/actuator/jobs/team-a/train-team-a", "/actuator/podgroups", "/actuator/queue", "/actuator/prometheus",
                "/actuator/metrics", "/actuator", "/actuator/%6Aobs", "/actuator/jobs;x=y", "//actuator//jobs")) {
            assertThat(get(path, null).statusCode()).as(path).isEqualTo(401);
            assertThat(get(path, "not-a-token").statusCode()).as(path).isEqualTo(401);
        }
        HttpResponse<String> refused = get("/actuator/jobs", null);
        assertThat(refused.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"muster\"");
        assertThat(JSON.readTree(refused.body()).path("message").asText()).contains("bearer token is required");

        assertThat(get("/actuator/health/readiness", null).statusCode()).isEqualTo(200);
        assertThat(get("/actuator/health/liveness", null).statusCode()).isEqualTo(200);
        assertThat(get("/dashboard/", null).statusCode()).isEqualTo(200);
        assertThat(get("/dashboard/dashboard.js", null).statusCode()).isEqualTo(200);
    }

    @Test
    void aUserWhoMayListJobsNowhereGets403() throws Exception {
        for (String path : List.of("/dashboard/api/jobs", "/dashboard/api/queue", "/actuator/jobs", "/actuator/queue",
                "/actuator/podgroups?namespace=team-a", "/actuator/prometheus")) {
            assertThat(get(path, bob).statusCode()).as(path).isEqualTo(403);
        }
        assertThat(JSON.readTree(get("/actuator/jobs", bob).body()).path("message").asText())
                .isEqualTo("user \"bob\" may not list jobs.batch.muster.dev in any namespace");
    }

    @Test
    void aUserSeesOnlyTheNamespacesWhereTheyMayListJobs() throws Exception {
        assertThat(names(json("/actuator/jobs", alice))).containsExactly("train-team-a");
        assertThat(names(json("/actuator/podgroups", alice))).containsExactly("train-team-a");
        assertThat(names(json("/actuator/jobs?namespace=team-a", alice))).containsExactly("train-team-a");
        assertThat(json("/dashboard/api/jobs", alice).findValuesAsText("namespace")).containsOnly("team-a");
        assertThat(json("/dashboard/api/jobs/team-a/train-team-a", alice).path("job").path("summary")
                .path("name").asText()).isEqualTo("train-team-a");
        assertThat(json("/actuator/queue", alice).path("gangs").findValuesAsText("namespace")).doesNotContain("team-b");
        assertThat(json("/dashboard/api/queues", alice).findValuesAsText("namespace")).doesNotContain("team-b");
        // Asking for another namespace by name is refused, as the API server refuses it.
        assertThat(get("/actuator/jobs?namespace=team-b", alice).statusCode()).isEqualTo(403);
        assertThat(get("/actuator/jobs/team-b/train-team-b", alice).statusCode()).isEqualTo(403);
        assertThat(get("/dashboard/api/jobs/team-b/train-team-b", alice).statusCode()).isEqualTo(403);
        assertThat(get("/actuator/prometheus", alice).statusCode()).isEqualTo(403);

        assertThat(names(json("/actuator/jobs", admin))).contains("train-team-a", "train-team-b");
        assertThat(json("/dashboard/api/jobs", admin).findValuesAsText("namespace")).contains("team-a", "team-b");
    }

    @Test
    void metricsNeedGetOnTheirPath() throws Exception {
        HttpResponse<String> scraped = get("/actuator/prometheus", prometheus);
        assertThat(scraped.statusCode()).isEqualTo(200);
        assertThat(scraped.body()).contains("jvm_memory_used_bytes");
        assertThat(get("/actuator/metrics", prometheus).statusCode()).isEqualTo(403);
        assertThat(get("/actuator/jobs", prometheus).statusCode()).isEqualTo(403);
    }

    /** A dashboard polling every two seconds costs the API server reviews once per cache period, not per call. */
    @Test
    void reviewsAreCachedAcrossRequests() throws Exception {
        String carol = env.cluster.access().mintToken(new ClusterAccess.User("carol", List.of("team-a-devs")));
        long before = reviews();
        for (int i = 0; i < 20; i++) {
            assertThat(get("/dashboard/api/jobs", carol).statusCode()).isEqualTo(200);
            assertThat(get("/dashboard/api/queues", carol).statusCode()).isEqualTo(200);
        }
        // One TokenReview, one cluster-wide SubjectAccessReview, one per namespace (default, team-a, team-b).
        assertThat(reviews() - before).isEqualTo(5);
    }

    private static long reviews() {
        ApiRequests requests = env.cluster.apiRequests();
        return requests.count(new ApiRequests.Kind(ApiRequests.COMPONENTS, "create", "tokenreviews"))
                + requests.count(new ApiRequests.Kind(ApiRequests.COMPONENTS, "create", "subjectaccessreviews"));
    }

    private static Job job(String namespace, String name) {
        return Serialization.unmarshal("""
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: %s, namespace: %s}
                spec:
                  minAvailable: 1
                  tasks:
                  - name: main
                    replicas: 1
                    template:
                      spec:
                        restartPolicy: Never
                        containers: [{name: main, image: busybox, resources: {requests: {cpu: "1"}}}]
                """.formatted(name, namespace), Job.class);
    }

    private static List<String> names(JsonNode summaries) {
        List<String> names = new ArrayList<>();
        summaries.forEach(s -> names.add(s.path("name").asText()));
        return names;
    }

    private static JsonNode json(String path, String token) throws Exception {
        HttpResponse<String> response = get(path, token);
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private static HttpResponse<String> get(String path, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
