package dev.muster.manager.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import dev.muster.local.LocalClusterConfig;
import dev.muster.local.manifest.Manifest;
import dev.muster.local.manifest.ManifestLoader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.muster.manager.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@code jobs}, {@code podgroups} and {@code queue} Actuator endpoints and the health groups, over HTTP,
 * on two nodes of 4 cpu running the quickstart (7 cpu) beside a job of two 6-cpu pods that fits no node.
 */
@Tag("emulator")
class OperationsEndpointsEndToEndTest {
    private static final String NO_ROOM = "0/2 nodes are available: 2 Insufficient cpu.";

    @TempDir
    static Path dir;
    private static ManagerOnLocalCluster env;
    private static Actuator actuator;

    @BeforeAll
    static void start() throws Exception {
        env = new ManagerOnLocalCluster(LocalClusterConfig.defaults().withNodes(2).withNodeCpu("4").withNodeMemory("16Gi"));
        actuator = env.actuator();
        Path tooBig = Files.writeString(dir.resolve("too-big.yaml"), """
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: too-big}
                spec:
                  minAvailable: 2
                  tasks:
                  - name: worker
                    replicas: 2
                    template:
                      spec:
                        restartPolicy: Never
                        containers:
                        - {name: w, image: busybox, resources: {requests: {cpu: "6"}}}
                """);
        List<Manifest> manifests = ManifestLoader.load(List.of(Path.of("../examples/quickstart.yaml"), tooBig));
        manifests.forEach(m -> env.client().resource(m.object()).create());
        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(actuator.json("jobs/default/quickstart").path("phase").asText()).isEqualTo("Completed"));
    }

    @AfterAll
    static void stop() {
        env.close();
    }

    @Test
    void jobsListsEveryJobWithPhaseReasonAndCounts() throws Exception {
        JsonNode jobs = actuator.json("jobs");

        assertThat(names(jobs)).containsExactly("quickstart", "too-big");
        JsonNode quickstart = jobs.get(0);
        assertThat(quickstart.path("namespace").asText()).isEqualTo("default");
        assertThat(quickstart.path("phase").asText()).isEqualTo("Completed");
        assertThat(quickstart.path("reason").asText()).isEqualTo("TasksSucceeded");
        assertThat(quickstart.path("minAvailable").asInt()).isEqualTo(4);
        assertThat(quickstart.path("succeeded").asInt()).isEqualTo(4);
        assertThat(quickstart.path("retryCount").asInt()).isZero();
        JsonNode tooBig = jobs.get(1);
        assertThat(tooBig.path("phase").asText()).isEqualTo("Pending");
        assertThat(tooBig.path("message").asText())
                .startsWith("waiting for scheduler muster to admit PodGroup too-big: " + NO_ROOM);
        assertThat(tooBig.path("pending").asInt()).isZero();
    }

    @Test
    void jobsFiltersByNamespaceAndShowsOneJobOr404() throws Exception {
        assertThat(names(actuator.json("jobs?namespace=default"))).containsExactly("quickstart", "too-big");
        assertThat(actuator.json("jobs?namespace=elsewhere")).isEmpty();
        assertThat(actuator.json("jobs/default/too-big").path("minAvailable").asInt()).isEqualTo(2);
        assertThat(actuator.get("jobs/default/absent").statusCode()).isEqualTo(404);
    }

    @Test
    void podgroupsShowPhaseCountersAndTheSchedulersConditions() throws Exception {
        assertThat(names(actuator.json("podgroups"))).containsExactly("quickstart", "too-big");
        assertThat(names(actuator.json("podgroups?namespace=elsewhere"))).isEmpty();

        JsonNode quickstart = actuator.json("podgroups/default/quickstart");
        assertThat(quickstart.path("phase").asText()).isEqualTo("Completed");
        assertThat(quickstart.path("minMember").asInt()).isEqualTo(4);
        assertThat(quickstart.path("succeeded").asInt()).isEqualTo(4);
        assertThat(quickstart.path("scheduled").path("status").asText()).isEqualTo("True");

        JsonNode tooBig = actuator.json("podgroups/default/too-big");
        assertThat(tooBig.path("phase").asText()).isEqualTo("Pending");
        assertThat(tooBig.path("minMember").asInt()).isEqualTo(2);
        assertThat(tooBig.path("unschedulable").path("status").asText()).isEqualTo("True");
        assertThat(tooBig.path("unschedulable").path("reason").asText()).isEqualTo("NotEnoughResources");
        assertThat(tooBig.path("unschedulable").path("message").asText()).startsWith(NO_ROOM);
        assertThat(tooBig.path("scheduled").isNull()).isTrue();
        assertThat(actuator.get("podgroups/default/absent").statusCode()).isEqualTo(404);
    }

    @Test
    void queueShowsTheWaitingGangWithWhyItWaits() throws Exception {
        JsonNode queue = actuator.json("queue");

        assertThat(queue.path("scheduling").asBoolean()).isTrue();
        assertThat(queue.path("gangs")).hasSize(1);
        JsonNode gang = queue.path("gangs").get(0);
        assertThat(gang.path("namespace").asText()).isEqualTo("default");
        assertThat(gang.path("name").asText()).isEqualTo("too-big");
        assertThat(gang.path("podGroup").asBoolean()).isTrue();
        assertThat(gang.path("position").asInt()).isEqualTo(1);
        assertThat(gang.path("state").asText()).isEqualTo("NotEnoughResources");
        assertThat(gang.path("message").asText()).startsWith(NO_ROOM);
        assertThat(gang.path("minMember").asInt()).isEqualTo(2);
        assertThat(gang.path("pending").asInt()).isZero();
    }

    @Test
    void healthShowsLeadershipButReadinessDoesNotDependOnIt() throws Exception {
        JsonNode leadership = actuator.json("health/leadership");
        assertThat(leadership.path("status").asText()).isEqualTo("UP");
        assertThat(leadership.path("details").path("leader").asBoolean()).isTrue();
        assertThat(leadership.path("details").path("lease").asText()).isEqualTo("default/muster-manager");

        JsonNode readiness = actuator.json("health/readiness");
        assertThat(readiness.path("status").asText()).isEqualTo("UP");
        assertThat(readiness.path("components").has("informers")).isTrue();
        assertThat(readiness.path("components").has("leadership")).isFalse();
    }

    private static List<String> names(JsonNode array) {
        List<String> names = new ArrayList<>();
        array.forEach(item -> names.add(item.path("name").asText()));
        return names;
    }
}
