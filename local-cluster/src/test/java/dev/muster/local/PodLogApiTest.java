package dev.muster.local;

import dev.muster.api.MusterLabels;
import dev.muster.local.server.ApiRequests;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.muster.local.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@code GET pods/{name}/log} through the fabric8 client and plain HTTP, on pods the simulated kubelet runs: the log
 * is its account of the container, and the refusals are kube-apiserver's and the kubelet's.
 */
@Tag("emulator")
class PodLogApiTest extends KubeletClusterTests {
    private static final String BASE = "/api/v1/namespaces/default/pods/";
    private static final String MAIN_ANNOTATIONS =
            "(pod annotations local.muster.dev/run-seconds and local.muster.dev/exit-code)";
    private static RawApi api;

    @BeforeAll
    static void connect() {
        api = new RawApi(cluster);
    }

    @Test
    void aFinishedContainersLogTellsWhatTheSimulatedKubeletDidAndIsCounted() {
        create(pod("finished", "Never", Map.of(MusterLabels.LOCAL_RUN_SECONDS, "0.2", MusterLabels.LOCAL_EXIT_CODE, "3"),
                "main"));
        bind("finished", "node-0");
        await().atMost(PATIENCE).until(() -> phase("finished").equals("Failed"));

        String log = client.pods().withName("finished").getLog();
        RawApi.Text stamped = api.getText(BASE + "finished/log?timestamps=true");

        assertThat(log.lines()).hasSize(3);
        assertThat(log.lines().toList().get(0)).isEqualTo("container \"main\" is simulated: the local cluster pulls and"
                + " runs no image (busybox), so it has no output; these lines tell what the simulated kubelet did");
        assertThat(log.lines().toList().get(1)).isEqualTo("started on node node-0");
        assertThat(log.lines().toList().get(2)).matches("exited with code 3 after [01]s \\Q" + MAIN_ANNOTATIONS + "\\E");
        assertThat(stamped.code()).isEqualTo(200);
        assertThat(stamped.contentType()).isEqualTo("text/plain");
        assertThat(stamped.body().lines())
                .allMatch(line -> line.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.0{9}Z \\S.*"), "stamped")
                .hasSize(3);
        assertThat(cluster.apiRequests().snapshot().keySet()).extracting(ApiRequests.Kind::toString)
                .contains("get pods/log");
    }

    @Test
    void aNamedContainersRunBeforeIsReadWithTerminated() {
        create(pod("looping", "OnFailure", Map.of(MusterLabels.LOCAL_RUN_SECONDS, "0.1", MusterLabels.LOCAL_EXIT_CODE, "1"),
                "main", "helper"));
        bind("looping", "node-1");
        await().atMost(PATIENCE).until(() -> restarts("looping", "helper") >= 1);

        String previous = client.pods().withName("looping").inContainer("helper").terminated().getLog();

        assertThat(previous).startsWith("container \"helper\" is simulated")
                .containsPattern("(?m)^started on node node-1( \\(restart \\d+\\))?$")
                .containsPattern("(?m)^exited with code 1 after [01]s \\Q" + MAIN_ANNOTATIONS + "\\E$");
        assertThatThrownBy(() -> client.pods().withName("looping").getLog())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(400))
                .hasMessageContaining("a container name must be specified for pod looping, choose one of: [main helper]");
    }

    @Test
    void refusalsAreTheApiServersAndTheKubeletsWithTheirCodes() {
        create(pod("unbound", "Never", Map.of(), "main"));
        create(pod("stuck", "Never", Map.of(), "main"));
        bind("stuck", "no-such-node");

        RawApi.Text unbound = api.getText(BASE + "unbound/log");
        RawApi.Response missing = api.get(BASE + "missing/log");
        RawApi.Response waiting = api.get(BASE + "stuck/log");
        RawApi.Response previous = api.get(BASE + "stuck/log?previous=true");
        RawApi.Response wrongContainer = api.get(BASE + "stuck/log?container=mian");
        RawApi.Response invalid = api.get(BASE + "stuck/log?tailLines=-1");
        RawApi.Response post = api.post(BASE + "stuck/log", Map.of());

        assertThat(unbound.code()).as("no kubelet to ask yet: empty, as kube-apiserver answers").isEqualTo(200);
        assertThat(unbound.body()).isEmpty();
        assertThat(missing.code()).isEqualTo(404);
        assertThat(missing.body().path("message").asText()).isEqualTo("pods \"missing\" not found");
        assertThat(waiting.code()).isEqualTo(400);
        assertThat(waiting.body().path("message").asText())
                .isEqualTo("container \"main\" in pod \"stuck\" is waiting to start: ContainerCreating");
        assertThat(previous.code()).isEqualTo(400);
        assertThat(previous.body().path("message").asText())
                .isEqualTo("previous terminated container \"main\" in pod \"stuck\" not found");
        assertThat(wrongContainer.code()).isEqualTo(400);
        assertThat(wrongContainer.body().path("message").asText()).isEqualTo("container mian is not valid for pod stuck");
        assertThat(invalid.code()).isEqualTo(422);
        assertThat(invalid.body().path("message").asText())
                .isEqualTo("PodLogOptions \"stuck\" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0");
        assertThat(post.code()).isEqualTo(405);
    }

    private static void create(Pod pod) {
        client.pods().resource(pod).create();
    }

    private static Pod pod(String name, String restartPolicy, Map<String, String> annotations, String... containers) {
        PodBuilder pod = new PodBuilder().withNewMetadata().withName(name).withAnnotations(annotations).endMetadata()
                .withNewSpec().withRestartPolicy(restartPolicy).endSpec();
        for (String container : containers) {
            pod.editSpec().addNewContainer().withName(container).withImage("busybox").endContainer().endSpec();
        }
        return pod.build();
    }

    private static int restarts(String pod, String container) {
        Pod current = client.pods().withName(pod).get();
        return current.getStatus().getContainerStatuses().stream().filter(s -> s.getName().equals(container))
                .mapToInt(ContainerStatus::getRestartCount).findFirst().orElse(0);
    }
}
