package dev.muster.local.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import dev.muster.local.ApiOnlyClusterTests;
import dev.muster.local.Fixtures;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** kubectl's {@code get} asks for Tables; pods, nodes and custom resources get their columns. */
@Tag("emulator")
class ServerSideTablesTest extends ApiOnlyClusterTests {
    private static final String KUBECTL_ACCEPT = "application/json;as=Table;v=v1;g=meta.k8s.io,"
            + "application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

    @Test
    void customResourcesGetTheirCrdsPrinterColumns() {
        PodGroup group = new PodGroup();
        group.getMetadata().setName("tabled");
        group.getSpec().setMinMember(4);
        PodGroup created = client.resource(group).create();
        PodGroupStatus status = new PodGroupStatus();
        status.setPhase(PodGroupPhase.Inqueue);
        created.setStatus(status);
        client.resource(created).updateStatus();

        JsonNode table = api.get("/apis/scheduling.muster.dev/v1alpha1/namespaces/default/podgroups/tabled",
                KUBECTL_ACCEPT).body();

        assertThat(table.path("kind").asText()).isEqualTo("Table");
        List<String> columns = texts(table.path("columnDefinitions"), "name");
        assertThat(columns).contains("Name", "Phase", "Min", "Running", "Age");
        JsonNode cells = table.path("rows").path(0).path("cells");
        assertThat(cells.path(columns.indexOf("Name")).asText()).isEqualTo("tabled");
        assertThat(cells.path(columns.indexOf("Phase")).asText()).isEqualTo("Inqueue");
        assertThat(cells.path(columns.indexOf("Min")).asInt()).isEqualTo(4);
        assertThat(table.path("rows").path(0).path("object").path("metadata").path("namespace").asText())
                .isEqualTo("default");
    }

    @Test
    void podsShowReadinessAndStatus() {
        client.resource(Fixtures.pod("tabled-pod")).create();

        JsonNode table = api.get("/api/v1/namespaces/default/pods", KUBECTL_ACCEPT).body();

        List<String> columns = texts(table.path("columnDefinitions"), "name");
        assertThat(columns).startsWith("Name", "Ready", "Status", "Restarts", "Age");
        JsonNode row = null;
        for (JsonNode candidate : table.path("rows")) {
            if (candidate.path("cells").path(0).asText().equals("tabled-pod")) {
                row = candidate;
            }
        }
        assertThat(row).isNotNull();
        assertThat(row.path("cells").path(1).asText()).isEqualTo("0/1");
        assertThat(row.path("cells").path(2).asText()).isEqualTo("Pending");
    }

    @Test
    void podsWhoseInitContainersHaveNotAllDoneShowTheirsAsKubectlDoes() {
        client.resource(withInit("init-running", false, new ContainerStatusBuilder().withName("fetch")
                        .withNewState().withNewTerminated().withExitCode(0).withReason("Completed").endTerminated().endState().build(),
                new ContainerStatusBuilder().withName("warm").withNewState().withNewRunning().endRunning().endState().build())).create();
        client.resource(withInit("init-crashing", false, new ContainerStatusBuilder().withName("fetch").withRestartCount(3)
                .withNewState().withNewWaiting().withReason("CrashLoopBackOff").endWaiting().endState().build())).create();
        Pod sidecar = withInit("with-sidecar", true, new ContainerStatusBuilder().withName("fetch").withStarted(true)
                .withReady(true).withNewState().withNewRunning().endRunning().endState().build());
        sidecar.getSpec().getInitContainers().get(0).setRestartPolicy("Always");
        sidecar.getSpec().getInitContainers().remove(1);
        sidecar.getStatus().setContainerStatuses(List.of(new ContainerStatusBuilder().withName("main").withReady(true)
                .withNewState().withNewRunning().endRunning().endState().build()));
        client.resource(sidecar).create();

        JsonNode table = api.get("/api/v1/namespaces/default/pods", KUBECTL_ACCEPT).body();

        assertThat(cells(table, "init-running")).startsWith("init-running", "0/1", "Init:1/2", "0");
        assertThat(cells(table, "init-crashing")).startsWith("init-crashing", "0/1", "Init:CrashLoopBackOff", "3");
        assertThat(cells(table, "with-sidecar")).startsWith("with-sidecar", "2/2", "Running", "0");
    }

    /** A pod with init containers fetch and warm, in the status given: Pending and not initialized, or Running. */
    private static Pod withInit(String name, boolean initialized, ContainerStatus... initStatuses) {
        Pod pod = Fixtures.pod(name);
        pod.getSpec().setInitContainers(new ArrayList<>(List.of(new ContainerBuilder().withName("fetch").withImage("busybox").build(),
                new ContainerBuilder().withName("warm").withImage("busybox").build())));
        pod.setStatus(new PodStatusBuilder().withPhase(initialized ? "Running" : "Pending")
                .withConditions(new PodConditionBuilder().withType("Initialized").withStatus(initialized ? "True" : "False").build())
                .withInitContainerStatuses(initStatuses).build());
        return pod;
    }

    private static List<String> cells(JsonNode table, String name) {
        for (JsonNode row : table.path("rows")) {
            if (row.path("cells").path(0).asText().equals(name)) {
                List<String> cells = new ArrayList<>();
                row.path("cells").forEach(cell -> cells.add(cell.asText()));
                return cells;
            }
        }
        throw new AssertionError("no row for " + name);
    }

    /** kube-apiserver's event columns; kubectl get events shows those of priority 0. */
    @Test
    void eventsShowLastSeenTypeReasonObjectAndMessage() {
        Instant now = Instant.now();
        client.v1().events().inNamespace("default").resource(new io.fabric8.kubernetes.api.model.EventBuilder()
                .withNewMetadata().withName("tabled-event").endMetadata()
                .withNewInvolvedObject().withKind("Job").withName("train").withNamespace("default").endInvolvedObject()
                .withType("Warning").withReason("PodFailed").withMessage(" pod train-0 failed \n")
                .withFirstTimestamp(now.minusSeconds(90).toString()).withLastTimestamp(now.minusSeconds(30).toString())
                .withCount(3).withNewSource().withComponent("muster-job-controller").endSource().build()).create();

        JsonNode table = api.get("/api/v1/namespaces/default/events?fieldSelector=metadata.name%3Dtabled-event",
                KUBECTL_ACCEPT).body();

        assertThat(texts(table.path("columnDefinitions"), "name")).containsExactly("Last Seen", "Type", "Reason",
                "Object", "Subobject", "Source", "Message", "First Seen", "Count", "Name");
        assertThat(texts(table.path("columnDefinitions"), "priority"))
                .containsExactly("0", "0", "0", "0", "1", "1", "0", "1", "1", "1");
        JsonNode cells = table.path("rows").path(0).path("cells");
        assertThat(cells.path(0).asText()).matches("3[0-9]s");
        assertThat(List.of(cells.path(1).asText(), cells.path(2).asText(), cells.path(3).asText(), cells.path(5).asText(),
                cells.path(6).asText(), cells.path(9).asText())).containsExactly("Warning", "PodFailed", "job/train",
                "muster-job-controller", "pod train-0 failed", "tabled-event");
        assertThat(cells.path(7).asText()).matches("9[0-9]s");
        assertThat(cells.path(8).asInt()).isEqualTo(3);
    }

    @Test
    void everyBuiltInKindGetsATable() {
        JsonNode table = api.get("/apis/storage.k8s.io/v1/storageclasses", KUBECTL_ACCEPT).body();

        assertThat(table.path("kind").asText()).isEqualTo("Table");
        assertThat(texts(table.path("columnDefinitions"), "name")).containsExactly("Name", "Age");
        assertThat(table.path("rows").path(0).path("cells").path(0).asText()).isEqualTo("standard");
    }

    @Test
    void plainClientsStillGetObjects() {
        JsonNode list = api.get("/api/v1/namespaces/default/pods").body();
        assertThat(list.path("kind").asText()).isEqualTo("PodList");
        assertThat(list.path("apiVersion").asText()).isEqualTo("v1");
    }

    @Test
    void agesReadLikeKubectls() {
        Instant now = Instant.now();
        assertThat(ServerSideTables.humanAge(now.minusSeconds(42).toString(), now)).isEqualTo("42s");
        assertThat(ServerSideTables.humanAge(now.minus(Duration.ofMinutes(3).plusSeconds(7)).toString(), now)).isEqualTo("3m7s");
        assertThat(ServerSideTables.humanAge(now.minus(Duration.ofHours(5)).toString(), now)).isEqualTo("5h");
        assertThat(ServerSideTables.humanAge(now.minus(Duration.ofDays(12)).toString(), now)).isEqualTo("12d");
    }

    private static List<String> texts(JsonNode array, String field) {
        List<String> texts = new ArrayList<>();
        array.forEach(n -> texts.add(n.path(field).asText()));
        return texts;
    }
}
