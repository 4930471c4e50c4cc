package dev.muster.cli.local;

import dev.muster.cli.local.LocalCommand;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.muster.cli.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code ./muster local} tells the user where the dashboard is, on the manager's port beside Actuator, with a
 * token in the URL that the local cluster knows: the URL works as printed, and a data call without the token is
 * refused. The kubeconfig it writes carries the same token and still works for kubectl.
 */
@Tag("emulator")
class LocalDashboardUrlTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Pattern DASHBOARD =
            Pattern.compile("(?m)^dashboard: (http://127\\.0\\.0\\.1:(\\d+)/dashboard/)#token=([A-Za-z0-9_-]+)$");

    @TempDir
    Path dir;

    @Test
    void localModePrintsADashboardUrlWhoseTokenTheManagerAccepts() throws Exception {
        // Runs long enough to be looked at while ./muster local still runs.
        Path job = Files.writeString(dir.resolve("slow.yaml"), """
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: slow}
                spec:
                  minAvailable: 1
                  schedulerName: muster
                  tasks:
                    - name: main
                      replicas: 1
                      template:
                        metadata: {annotations: {local.muster.dev/run-seconds: "15"}}
                        spec:
                          restartPolicy: Never
                          containers: [{name: main, image: busybox:1.36, resources: {requests: {cpu: "1"}}}]
                """);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CompletableFuture<Integer> local = CompletableFuture.supplyAsync(() -> LocalCommand.run(new String[]{
                "--until-done", "--timeout", "120s", "--state-dir", dir.resolve("state").toString(), job.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));

        await().atMost(PATIENCE).until(() -> DASHBOARD.matcher(out.toString(StandardCharsets.UTF_8)).find());
        String printed = out.toString(StandardCharsets.UTF_8);
        Matcher dashboard = DASHBOARD.matcher(printed);
        assertThat(dashboard.find()).isTrue();
        assertThat(printed).containsPattern("(?m)^actuator: http://127\\.0\\.0\\.1:" + dashboard.group(2) + "/actuator/health$");
        String page = dashboard.group(1);
        String token = dashboard.group(3);

        assertThat(get(page, null).statusCode()).as("the page itself loads without a token").isEqualTo(200);
        assertThat(get(page + "api/jobs", null).statusCode()).isEqualTo(401);
        assertThat(get(page + "api/jobs", "not-" + token).statusCode()).isEqualTo(401);
        await().atMost(PATIENCE).untilAsserted(() -> {
            HttpResponse<String> jobs = get(page + "api/jobs", token);
            assertThat(jobs.statusCode()).isEqualTo(200);
            assertThat(jobs.body()).contains("\"name\":\"slow\"");
        });
        assertKubectlWorks(dir.resolve("state").resolve("kubeconfig"));

        assertThat(local.get(120, TimeUnit.SECONDS)).as(out.toString(StandardCharsets.UTF_8)).isZero();
    }

    /** kubectl, where it is installed (always under CI), reads the cluster through the kubeconfig with the token. */
    private static void assertKubectlWorks(Path kubeconfig) throws Exception {
        boolean onPath = Arrays.stream(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .anyMatch(p -> new File(p, "kubectl").canExecute());
        if (!onPath && !"true".equals(System.getenv("CI"))) {
            System.out.println("kubectl is not on the PATH: the kubeconfig is not checked with it");
            return;
        }
        Process kubectl = new ProcessBuilder("kubectl", "--kubeconfig", kubeconfig.toString(), "get", "mjob", "slow",
                "-o", "name").redirectErrorStream(true).start();
        assertThat(kubectl.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String said = new String(kubectl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(said.strip()).as(said).isEqualTo("job.batch.muster.dev/slow");
    }

    private static HttpResponse<String> get(String url, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
