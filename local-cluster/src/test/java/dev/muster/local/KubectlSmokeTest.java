package dev.muster.local;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobValidationCorpusTest;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.provider.Arguments;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The real kubectl against the emulator; skipped, with the reason printed, where kubectl is not on the PATH. */
class KubectlSmokeTest {
    private record Result(int exitCode, String out, String err) {
    }

    private static LocalCluster cluster;
    private static KubernetesClient client;
    @TempDir
    static Path dir;
    private static Path kubeconfig;

    @BeforeAll
    static void startCluster() {
        assumeTrue(onPath("kubectl"), "kubectl is not on the PATH");
        cluster = LocalCluster.start(Fixtures.FAST.withNodes(1));
        client = cluster.client();
        kubeconfig = cluster.writeKubeconfig(dir.resolve("kubeconfig"));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void getNodesAndResourceTypes() {
        Result nodes = kubectl("get", "nodes");
        assertThat(nodes.exitCode()).as(nodes.err()).isZero();
        assertThat(nodes.out()).contains("node-0");

        Result resources = kubectl("api-resources");
        assertThat(resources.exitCode()).as(resources.err()).isZero();
        assertThat(resources.out()).containsPattern("jobs\\s+mjob,mj\\s+batch.muster.dev/v1alpha1\\s+true\\s+Job")
                .containsPattern("podgroups\\s+pg,podgroup\\s+scheduling.muster.dev/v1alpha1\\s+true\\s+PodGroup");
    }

    @Test
    void applyGetReapplyAndDelete() {
        Result applied = kubectl("apply", "-f", manifest("podgroup-and-pod.yaml"));
        assertThat(applied.exitCode()).as(applied.err()).isZero();
        assertThat(applied.out()).contains("podgroup.scheduling.muster.dev/smoke created", "pod/smoke-pod created");

        Result listed = kubectl("get", "pods,mjob,pg", "-A");
        assertThat(listed.exitCode()).as(listed.err()).isZero();
        assertThat(listed.out()).contains("pod/smoke-pod", "podgroup.scheduling.muster.dev/smoke");
        assertThat(kubectl("get", "pods").out()).containsPattern("NAME\\s+READY\\s+STATUS")
                .containsPattern("smoke-pod\\s+0/1\\s+Pending");
        assertThat(kubectl("get", "pg", "smoke").out()).contains("MIN", "PHASE").containsPattern("(?m)^smoke\\s.*\\b2\\b");

        Result yaml = kubectl("get", "pg", "smoke", "-o", "yaml");
        assertThat(yaml.exitCode()).as(yaml.err()).isZero();
        assertThat(yaml.out()).contains("minMember: 2", "uid:", "resourceVersion:");

        Result reapplied = kubectl("apply", "-f", manifest("podgroup-and-pod-changed.yaml"));
        assertThat(reapplied.exitCode()).as(reapplied.err()).isZero();
        assertThat(reapplied.out()).contains("podgroup.scheduling.muster.dev/smoke configured", "pod/smoke-pod configured");
        assertThat(client.resources(PodGroup.class).withName("smoke").get().getSpec().getMinMember()).isEqualTo(3);
        var pod = client.pods().withName("smoke-pod").get();
        assertThat(pod.getMetadata().getLabels()).containsEntry("stage", "changed");
        assertThat(pod.getSpec().getContainers()).singleElement()
                .satisfies(c -> assertThat(c.getEnv()).extracting("name").containsExactly("MODE"));

        Result deleted = kubectl("delete", "-f", manifest("podgroup-and-pod-changed.yaml"));
        assertThat(deleted.exitCode()).as(deleted.err()).isZero();
        assertThat(client.resources(PodGroup.class).withName("smoke").get()).isNull();
        assertThat(client.pods().withName("smoke-pod").get()).isNull();
    }

    @Test
    void createMusterJobAndReportMissingObjects() {
        Result created = kubectl("create", "-f", manifest("job.yaml"));
        assertThat(created.exitCode()).as(created.err()).isZero();
        assertThat(client.resources(Job.class).withName("smoke-job").get()).isNotNull();
        assertThat(kubectl("get", "mj").out()).contains("smoke-job");

        Result again = kubectl("create", "-f", manifest("job.yaml"));
        assertThat(again.exitCode()).isNotZero();
        assertThat(again.err()).contains("AlreadyExists");

        Result missing = kubectl("get", "pod", "no-such-pod");
        assertThat(missing.exitCode()).isNotZero();
        assertThat(missing.err()).contains("pods \"no-such-pod\" not found");
    }

    /** As against a real API server: kubectl apply prints the 422's causes, one per field, and exits 1. */
    @Test
    void applyOfBadJobsIsRefusedNamingTheField() {
        Result replicas = kubectl("apply", "-f", manifest("bad-replicas.yaml"));
        System.out.println("kubectl apply -f bad-replicas.yaml (exit " + replicas.exitCode() + "):\n" + replicas.err());
        Result minAvailable = kubectl("apply", "-f", manifest("bad-min-available.yaml"));
        System.out.println("kubectl apply -f bad-min-available.yaml (exit " + minAvailable.exitCode() + "):\n" + minAvailable.err());

        assertThat(replicas.exitCode()).isEqualTo(1);
        assertThat(replicas.err()).contains("\"bad-replicas\" is invalid", "spec.tasks[0].replicas: Invalid value: \"string\": "
                + "spec.tasks[0].replicas in body must be of type integer: \"string\"");
        assertThat(minAvailable.exitCode()).isEqualTo(1);
        assertThat(minAvailable.err()).contains("\"bad-min-available\" is invalid",
                "spec.tasks[0]: Invalid value: \"object\": minAvailable must not exceed replicas");
        assertThat(client.resources(Job.class).withName("bad-replicas").get()).isNull();
        assertThat(client.resources(Job.class).withName("bad-min-available").get()).isNull();
    }

    /** As against a real API server, kubectl's default {@code --validate=strict} refuses a misspelled field. */
    @Test
    void applyOfAMisspelledFieldIsRefusedUnderKubectlsDefaultStrictValidation() {
        Result strict = kubectl("apply", "-f", manifest("misspelled-field.yaml"));
        System.out.println("kubectl apply -f misspelled-field.yaml (exit " + strict.exitCode() + "):\n" + strict.err());

        assertThat(strict.exitCode()).isEqualTo(1);
        assertThat(strict.err()).contains("Job in version \"v1alpha1\" cannot be handled as a Job: strict decoding error: "
                + "unknown field \"spec.minAvailabel\"");
        assertThat(client.resources(Job.class).withName("misspelled").get()).isNull();
    }

    /** crd's whole bad-input corpus in one kubectl apply: every refusal names its fields, the rest is created. */
    @Test
    void applyOfTheBadInputCorpusRefusesEachCaseWithItsFieldPaths() throws IOException {
        List<Arguments> corpus = JobValidationCorpusTest.corpus().toList();
        StringBuilder documents = new StringBuilder();
        for (int i = 0; i < corpus.size(); i++) {
            Job job = (Job) corpus.get(i).get()[1];
            job.getMetadata().setNamespace("kubectl-corpus-" + i);
            documents.append(Serialization.asYaml(job));
        }
        Path file = Files.writeString(dir.resolve("corpus.yaml"), documents);

        Result applied = kubectl("apply", "-f", file.toString());

        assertThat(applied.exitCode()).isEqualTo(1);
        for (int i = 0; i < corpus.size(); i++) {
            @SuppressWarnings("unchecked")
            List<String> admission = (List<String>) corpus.get(i).get()[2];
            String namespace = "kubectl-corpus-" + i;
            admission.forEach(cause -> assertThat(applied.err()).as(namespace).contains(cause));
            assertThat(client.resources(Job.class).inNamespace(namespace).withName("train").get()).as(namespace)
                    .matches(created -> (created == null) != admission.isEmpty());
        }
    }

    private static Result kubectl(String... args) {
        List<String> command = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString(),
                "--cache-dir", dir.resolve("cache").toString(), "--request-timeout", "20s"));
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectOutput(dir.resolve("out").toFile())
                    .redirectError(dir.resolve("err").toFile()).start();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("kubectl " + String.join(" ", args) + " did not finish");
            }
            return new Result(process.exitValue(), Files.readString(dir.resolve("out"), StandardCharsets.UTF_8),
                    Files.readString(dir.resolve("err"), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new AssertionError("cannot run kubectl", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static String manifest(String name) {
        try {
            return Path.of(KubectlSmokeTest.class.getResource("/kubectl/" + name).toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean onPath(String executable) {
        String path = System.getenv("PATH");
        return path != null && Stream.of(path.split(File.pathSeparator))
                .anyMatch(directory -> Files.isExecutable(Path.of(directory, executable)));
    }
}
