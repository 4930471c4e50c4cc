package dev.muster.local;

import com.fasterxml.jackson.databind.JsonNode;
import dev.muster.api.KubeTime;
import dev.muster.api.MusterLabels;
import dev.muster.api.PodPhase;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobValidationCorpusTest;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.local.protocol.Json;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.provider.Arguments;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A real kubectl against the emulator, one subclass per kubectl release tested ({@link Kubectls} finds them; a
 * missing one is skipped, with the reason printed, and fails the build where {@code CI=true}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class KubectlSmokeTests {
    private record Result(int exitCode, String out, String err) {
    }

    private LocalCluster cluster;
    private KubernetesClient client;
    private Path dir;
    private Path kubeconfig;
    private Path executable;
    private int minorVersion;

    /** The kubectl binary to run. */
    abstract Path kubectlExecutable();

    @BeforeAll
    void startCluster(@TempDir Path tempDir) {
        dir = tempDir;
        executable = kubectlExecutable();
        cluster = LocalCluster.start(Fixtures.FAST.withNodes(1));
        client = cluster.client();
        kubeconfig = cluster.writeKubeconfig(dir.resolve("kubeconfig"));
        JsonNode version = Json.stored(kubectl("version", "--client", "-o", "json").out()).path("clientVersion");
        minorVersion = Integer.parseInt(version.path("minor").asText().replaceAll("\\D.*", ""));
        System.out.println(getClass().getSimpleName() + ": kubectl " + version.path("gitVersion").asText());
    }

    @AfterAll
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** A quota's Used against its Hard in kubectl describe, and kubectl's words for a pod it refuses. */
    @Test
    void describeQuotaShowsUsedAndHardAndCreateShowsTheRefusal() throws IOException {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("smoke-quota").endMetadata()
                .build()).create();
        Path manifest = Files.writeString(dir.resolve("quota.yaml"), """
                apiVersion: v1
                kind: ResourceQuota
                metadata: {name: compute, namespace: smoke-quota}
                spec: {hard: {pods: "1", requests.cpu: "2"}}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: first, namespace: smoke-quota}
                spec: {containers: [{name: main, image: busybox, resources: {requests: {cpu: 500m}}}]}
                """);
        assertThat(kubectl("create", "-f", manifest.toString()).exitCode()).isZero();
        Path second = Files.writeString(dir.resolve("second.yaml"), """
                apiVersion: v1
                kind: Pod
                metadata: {name: second, namespace: smoke-quota}
                spec: {containers: [{name: main, image: busybox, resources: {requests: {cpu: 500m}}}]}
                """);

        Result refused = kubectl("create", "-f", second.toString());
        Result described = kubectl("describe", "quota", "compute", "-n", "smoke-quota");

        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.err()).contains("Error from server (Forbidden)").contains("pods \"second\" is forbidden: "
                + "exceeded quota: compute, requested: pods=1, used: pods=1, limited: pods=1");
        assertThat(described.exitCode()).as(described.err()).isZero();
        assertThat(described.out()).containsPattern("Resource\\s+Used\\s+Hard")
                .containsPattern("\\npods\\s+1\\s+1\\n").containsPattern("\\nrequests.cpu\\s+500m\\s+2\\n");
    }

    /** DRA's kinds: the simulated driver's slice of an added GPU node and its device class, with their columns. */
    @Test
    void getResourceSlicesAndDeviceClasses() {
        cluster.addSimulatedNode(new NodeBuilder().withNewMetadata().withName("gpu-node").endMetadata().withNewStatus()
                .addToCapacity("cpu", new Quantity("8")).addToCapacity("nvidia.com/gpu", new Quantity("2")).endStatus()
                .build());

        Result slices = kubectl("get", "resourceslices");
        Result classes = kubectl("get", "deviceclasses.resource.k8s.io");

        assertThat(slices.exitCode()).as(slices.err()).isZero();
        assertThat(slices.out()).containsPattern("NAME\\s+NODE\\s+DRIVER\\s+POOL\\s+AGE")
                .containsPattern("gpu-node-gpu.example.com\\s+gpu-node\\s+gpu.example.com\\s+gpu-node\\s");
        assertThat(classes.exitCode()).as(classes.err()).isZero();
        assertThat(classes.out()).contains("gpu.example.com");
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

    /**
     * kubectl's {@code create} subcommands post built-in kinds through client-go's typed clients, in Kubernetes
     * protobuf; the local cluster answered them "special characters are not allowed" before it read protobuf.
     */
    @Test
    void createBuiltInKindsFromTheCommandLine() {
        Result namespace = kubectl("create", "namespace", "team-proto");
        assertThat(namespace.exitCode()).as(namespace.err()).isZero();
        Result configMap = kubectl("create", "configmap", "settings", "-n", "team-proto", "--from-literal=mode=fast",
                "--from-literal=empty=");
        assertThat(configMap.exitCode()).as(configMap.err()).isZero();
        Result secret = kubectl("create", "secret", "generic", "creds", "-n", "team-proto", "--from-literal=token=hunter2");
        assertThat(secret.exitCode()).as(secret.err()).isZero();
        Result deployment = kubectl("create", "deployment", "web", "-n", "team-proto", "--image=nginx", "--replicas=0");
        assertThat(deployment.exitCode()).as(deployment.err()).isZero();

        // Go's protobuf writes every string field, empty or not; read as Go's JSON, an empty one is absent.
        assertThat(client.namespaces().withName("team-proto").get().getMetadata().getGenerateName()).isNull();
        var settings = client.configMaps().inNamespace("team-proto").withName("settings").get();
        assertThat(settings.getData()).containsExactlyInAnyOrderEntriesOf(java.util.Map.of("mode", "fast", "empty", ""));
        assertThat(settings.getMetadata().getResourceVersion()).isNotBlank();
        assertThat(client.secrets().inNamespace("team-proto").withName("creds").get().getData())
                .containsEntry("token", "aHVudGVyMg==");
        var web = client.apps().deployments().inNamespace("team-proto").withName("web").get();
        assertThat(web.getSpec().getReplicas()).isZero();
        // kubectl sends the template's zero creationTimestamp (an empty protobuf message): Go's JSON omits it.
        assertThat(web.getSpec().getTemplate().getMetadata().getCreationTimestamp()).isNull();
        assertThat(web.getSpec().getTemplate().getSpec().getContainers()).singleElement()
                .satisfies(c -> assertThat(c.getImage()).isEqualTo("nginx"));

        Result deleted = kubectl("delete", "configmap", "settings", "-n", "team-proto");
        assertThat(deleted.exitCode()).as(deleted.err()).isZero();
        assertThat(client.configMaps().inNamespace("team-proto").withName("settings").get()).isNull();
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

    /**
     * Server-side apply as kubectl does it: a second apply removes what it no longer sets, another manager's change
     * is a conflict kubectl reports until {@code --force-conflicts}, and {@code --show-managed-fields} shows the owners.
     */
    @Test
    void serverSideApplyOwnsRemovesAndConflicts() throws IOException {
        Path first = Files.writeString(dir.resolve("ssa-first.yaml"), """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: ssa, namespace: default, labels: {a: "1", b: "2"}}
                data: {x: "1", y: "2"}
                """);
        Path second = Files.writeString(dir.resolve("ssa-second.yaml"), """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: ssa, namespace: default, labels: {a: "1"}}
                data: {x: "1"}
                """);
        assertThat(kubectl("apply", "--server-side", "-f", first.toString()).exitCode()).isZero();

        Result reapplied = kubectl("apply", "--server-side", "-f", second.toString());
        Result edited = kubectl("patch", "cm", "ssa", "--type=merge", "-p", "{\"data\":{\"x\":\"changed\"}}",
                "--field-manager=editor");
        Result conflicting = kubectl("apply", "--server-side", "-f", second.toString());
        String afterConflict = client.configMaps().withName("ssa").get().getData().get("x");
        Result forced = kubectl("apply", "--server-side", "--force-conflicts", "-f", second.toString());
        Result shown = kubectl("get", "cm", "ssa", "-o", "yaml", "--show-managed-fields");

        assertThat(reapplied.exitCode()).as(reapplied.err()).isZero();
        assertThat(edited.exitCode()).as(edited.err()).isZero();
        assertThat(conflicting.exitCode()).isNotZero();
        assertThat(conflicting.err()).contains("Apply failed with 1 conflict: conflict with \"editor\" using v1: .data.x");
        assertThat(afterConflict).isEqualTo("changed");
        assertThat(forced.exitCode()).as(forced.err()).isZero();
        var stored = client.configMaps().withName("ssa").get();
        assertThat(stored.getMetadata().getLabels()).containsOnlyKeys("a");
        assertThat(stored.getData()).containsExactlyEntriesOf(java.util.Map.of("x", "1"));
        assertThat(shown.exitCode()).as(shown.err()).isZero();
        assertThat(shown.out()).contains("managedFields:").contains("manager: kubectl").contains("operation: Apply")
                .contains("fieldsType: FieldsV1").contains("f:x: {}").doesNotContain("manager: editor");
    }

    /** A Muster Job applied server-side twice: its spec.tasks, atomic in the CRD's schema, is owned whole. */
    @Test
    void serverSideApplyOfAMusterJob() throws IOException {
        String job = """
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata:
                  name: ssa-job
                  labels: {team: a%s}
                spec:
                  minAvailable: 1
                  tasks:
                  - name: worker
                    replicas: 1
                    template:
                      spec:
                        containers:
                        - name: main
                          image: busybox
                """;
        Path first = Files.writeString(dir.resolve("ssa-job-first.yaml"), job.formatted(", tier: b"));
        Path second = Files.writeString(dir.resolve("ssa-job-second.yaml"), job.formatted(""));

        Result applied = kubectl("apply", "--server-side", "-f", first.toString());
        Result again = kubectl("apply", "--server-side", "-f", second.toString());
        Result shown = kubectl("get", "mj", "ssa-job", "-o", "yaml", "--show-managed-fields");

        assertThat(applied.exitCode()).as(applied.err()).isZero();
        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(client.resources(Job.class).withName("ssa-job").get().getMetadata().getLabels()).containsOnlyKeys("team");
        assertThat(shown.out()).contains("manager: kubectl").contains("operation: Apply").contains("f:tasks: {}")
                .doesNotContain("f:tier");
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

    @Test
    void apiResourcesListStorageQuotasAndVolumes() {
        Result resources = kubectl("api-resources");

        assertThat(resources.exitCode()).as(resources.err()).isZero();
        assertThat(resources.out()).containsPattern("persistentvolumes\\s+pv\\s+v1\\s+false\\s+PersistentVolume")
                .containsPattern("resourcequotas\\s+quota\\s+v1\\s+true\\s+ResourceQuota")
                .containsPattern("storageclasses\\s+sc\\s+storage.k8s.io/v1\\s+false\\s+StorageClass");
        Result classes = kubectl("get", "storageclasses");
        assertThat(classes.exitCode()).as(classes.err()).isZero();
        assertThat(classes.out()).contains("standard");
    }

    /** kubectl get events prints kube-apiserver's columns, not only NAME and AGE. */
    @Test
    void getEventsShowsWhatHappenedToWhat() {
        client.v1().events().inNamespace("default").resource(new EventBuilder().withNewMetadata()
                .withName("smoke-event").endMetadata().withNewInvolvedObject().withKind("Pod").withName("smoke-pod")
                .withNamespace("default").endInvolvedObject().withType("Warning").withReason("BackOff")
                .withMessage("back-off restarting").withLastTimestamp(Instant.now().toString()).build()).create();

        Result events = kubectl("get", "events");

        assertThat(events.exitCode()).as(events.err()).isZero();
        assertThat(events.out()).containsPattern("LAST SEEN\\s+TYPE\\s+REASON\\s+OBJECT\\s+MESSAGE")
                .containsPattern("Warning\\s+BackOff\\s+pod/smoke-pod\\s+back-off restarting");
    }

    /**
     * kubectl describe reads the Events of the object through a field selector on involvedObject, and decodes them
     * into typed Events: one time Go cannot decode and the whole list is dropped ("Events: &lt;none&gt;"). The
     * Event carries its times as Muster's EventRecorder writes them (KubeTime), so the real kubectl checks them.
     */
    @Test
    void describeOfAMusterJobShowsItsEvents() throws IOException {
        Path manifest = Files.writeString(dir.resolve("described.yaml"),
                Files.readString(Path.of(manifest("job.yaml"))).replace("smoke-job", "described-job"));
        assertThat(kubectl("create", "-f", manifest.toString()).exitCode()).isZero();
        Job job = client.resources(Job.class).withName("described-job").get();
        client.v1().events().inNamespace("default").resource(new EventBuilder().withNewMetadata()
                .withName("described-job.failed").endMetadata().withNewInvolvedObject().withKind("Job")
                .withApiVersion(Job.API_VERSION).withName("described-job").withNamespace("default")
                .withUid(job.getMetadata().getUid()).endInvolvedObject().withType("Warning").withReason("PodFailed")
                .withMessage("pod described-job-worker-0 failed").withCount(2)
                .withFirstTimestamp(KubeTime.format(Instant.now())).withLastTimestamp(KubeTime.format(Instant.now()))
                .withEventTime(new MicroTime(KubeTime.formatMicro(Instant.now())))
                .withReportingComponent("smoke").withReportingInstance("smoke").withAction("PodFailed").build()).create();

        Result described = kubectl("describe", "mjob", "described-job");

        assertThat(described.exitCode()).as(described.err()).isZero();
        assertThat(described.out()).doesNotContain("Events:  <none>")
                .containsPattern("Warning\\s+PodFailed\\s+.*pod described-job-worker-0 failed");
    }

    /** kubectl 1.35 waits through a streaming list (WatchList), which hangs without its closing bookmark. */
    @Test
    void waitForJsonpathReturnsOnceTheValueIsThere() throws Exception {
        assumeTrue(minorVersion >= 23, "kubectl wait --for=jsonpath came with kubectl 1.23");
        client.configMaps().inNamespace("default").resource(new ConfigMapBuilder().withNewMetadata()
                .withName("awaited").endMetadata().addToData("state", "starting").build()).create();
        Process waiting = start("wait", "--for=jsonpath={.data.state}=ready", "configmap/awaited", "--timeout=40s");

        client.configMaps().inNamespace("default").withName("awaited")
                .edit(map -> new ConfigMapBuilder(map).addToData("state", "ready").build());

        try {
            assertThat(waiting.waitFor(50, TimeUnit.SECONDS)).as("kubectl wait returned").isTrue();
        } finally {
            waiting.destroyForcibly();
        }
        assertThat(waiting.exitValue()).as(Files.readString(dir.resolve("wait.err"))).isZero();
        assertThat(Files.readString(dir.resolve("wait.out"))).contains("configmap/awaited condition met");
        assertThat(kubectl("wait", "--for=jsonpath={.data.state}=ready", "configmap/awaited", "--timeout=20s")
                .exitCode()).isZero();
    }

    /**
     * kubectl logs reads the simulated kubelet's account of a container; for a pod of several containers without
     * {@code -c} it picks the first and says so, and {@code --previous} of a first run is the kubelet's refusal.
     */
    @Test
    void logsTellWhatTheSimulatedKubeletDid() {
        client.pods().resource(new PodBuilder().withNewMetadata().withName("logged")
                .addToAnnotations(MusterLabels.LOCAL_RUN_SECONDS, "0.2").endMetadata()
                .withNewSpec().withRestartPolicy("Never").withNodeName("node-0")
                .addNewContainer().withName("main").withImage("busybox").endContainer()
                .addNewContainer().withName("helper").withImage("busybox").endContainer().endSpec().build()).create();
        await().atMost(Patience.PATIENCE).until(() -> PodPhase.of(client.pods().withName("logged").get()) == PodPhase.Succeeded);

        Result defaulted = kubectl("logs", "logged");
        Result stamped = kubectl("logs", "logged", "-c", "helper", "--timestamps");
        Result previous = kubectl("logs", "logged", "--previous");
        Result missing = kubectl("logs", "no-such-pod");

        assertThat(defaulted.exitCode()).as(defaulted.err()).isZero();
        assertThat(defaulted.err()).contains("Defaulted container \"main\" out of: main, helper");
        assertThat(defaulted.out()).startsWith("container \"main\" is simulated: the local cluster pulls and runs no image")
                .contains("started on node node-0\n")
                .containsPattern("exited with code 0 after [01]s \\(pod annotations local.muster.dev/run-seconds and"
                        + " local.muster.dev/exit-code\\)\n$");
        assertThat(stamped.exitCode()).as(stamped.err()).isZero();
        assertThat(stamped.out().lines()).hasSize(3)
                .allMatch(line -> line.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{9}Z \\S.*"));
        assertThat(stamped.out()).contains("Z container \"helper\" is simulated");
        assertThat(previous.exitCode()).isEqualTo(1);
        assertThat(previous.err()).contains("Error from server (BadRequest): previous terminated container \"main\""
                + " in pod \"logged\" not found");
        assertThat(missing.exitCode()).isEqualTo(1);
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
        assumeTrue(minorVersion >= 25, "kubectl asks for server-side field validation since 1.25");
        Result strict = kubectl("apply", "-f", manifest("misspelled-field.yaml"));
        System.out.println("kubectl apply -f misspelled-field.yaml (exit " + strict.exitCode() + "):\n" + strict.err());

        assertThat(strict.exitCode()).isEqualTo(1);
        assertThat(strict.err()).contains("Job in version \"v1alpha1\" cannot be handled as a Job: strict decoding error: "
                + "unknown field \"spec.minAvailabel\"");
        assertThat(client.resources(Job.class).withName("misspelled").get()).isNull();
    }

    /** The same for a built-in kind: a pod's unknown field is found against fabric8's model of a Pod. */
    @Test
    void applyOfAPodWithAMisspelledFieldIsRefusedUnderKubectlsDefaultStrictValidation() {
        assumeTrue(minorVersion >= 25, "kubectl asks for server-side field validation since 1.25");
        Result strict = kubectl("apply", "-f", manifest("misspelled-pod-field.yaml"));

        assertThat(strict.exitCode()).isEqualTo(1);
        assertThat(strict.err()).contains("Pod in version \"v1\" cannot be handled as a Pod: strict decoding error: "
                + "unknown field \"spec.containers[0].resorces\"");
        assertThat(client.pods().inNamespace("default").withName("misspelled-pod").get()).isNull();
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

    /**
     * kubectl explain reads the emulator's OpenAPI v3 document of Muster's CRDs, as of a real cluster's, with the
     * descriptions the CRDs carry (kubectl wraps them, hence the whitespace made single).
     */
    @Test
    void explainOfMusterKindsListsTheirFieldsFromTheCrds() {
        assumeTrue(minorVersion >= 27, "kubectl explain reads OpenAPI v3 since 1.27");
        Result tasks = kubectl("explain", "mjob.spec.tasks");
        Result minAvailable = kubectl("explain", "mjob.spec.minAvailable");
        // By its short name: plain "podgroups" is Kubernetes' scheduling.k8s.io kind, built-in groups coming first.
        Result minMember = kubectl("explain", "pg.spec.minMember");
        Result job = kubectl("explain", "mjob");

        assertThat(tasks.exitCode()).as(tasks.err()).isZero();
        assertThat(tasks.out()).contains("GROUP:      batch.muster.dev", "KIND:       Job", "VERSION:    v1alpha1",
                        "FIELD: tasks <[]Object>")
                .containsPattern("(?m)^  replicas\\t<integer>$").containsPattern("(?m)^  minAvailable\\t<integer>$")
                .containsPattern("(?m)^  template\\t<Object>$")
                .doesNotContain("<no description>");
        assertThat(singleSpaced(tasks.out())).contains("The job's tasks; at least one, at most 64, with unique names.",
                "Number of pods; defaults to 1.");
        assertThat(minAvailable.exitCode()).as(minAvailable.err()).isZero();
        assertThat(singleSpaced(minAvailable.out())).contains("FIELD: minAvailable <integer>",
                "Pods that must run at once for the job to run, and Succeeded pods a finished job needs; defaults to"
                        + " the sum of the tasks' minAvailable.");
        assertThat(minMember.exitCode()).as(minMember.err()).isZero();
        assertThat(singleSpaced(minMember.out())).contains("KIND: PodGroup", "FIELD: minMember <integer>",
                "Pods that must be placed at once; defaults to 1.");
        assertThat(job.exitCode()).as(job.err()).isZero();
        assertThat(job.out()).containsPattern("(?m)^  metadata\\t<ObjectMeta>$")
                .contains("APIVersion defines the versioned schema of this representation of an object.");
        assertThat(singleSpaced(job.out())).contains("A batch job of one or more tasks, each a set of identical pods,"
                + " gang-scheduled through a PodGroup.", "Desired state of the job.");
    }

    private static String singleSpaced(String text) {
        return text.replaceAll("\\s+", " ");
    }

    /** A user's CRD is explained with its descriptions once created, and no longer once deleted. */
    @Test
    void explainOfAUserCrdShowsItsDescriptionsUntilItIsDeleted() {
        assumeTrue(minorVersion >= 27, "kubectl explain reads OpenAPI v3 since 1.27");
        var crds = client.apiextensions().v1().customResourceDefinitions();
        crds.load(KubectlSmokeTests.class.getResourceAsStream("/openapi/gizmos-crd.yaml")).create();

        Result spec = kubectl("explain", "gizmos.spec");
        crds.withName("gizmos.openapi.example.com").delete();
        Result deleted = kubectl("explain", "gizmos.spec");

        assertThat(spec.exitCode()).as(spec.err()).isZero();
        assertThat(spec.out()).contains("GROUP:      openapi.example.com", "KIND:       Gizmo", "FIELD: spec <Object>",
                        "What the gizmo should do.", "How many cranks the gizmo turns at once.")
                .containsPattern("(?m)^  cranks\\t<integer> -required-$");
        // kubectl's discovery cache still knows gizmos, as it would of a real cluster; /openapi/v3 no longer does.
        assertThat(deleted.exitCode()).isEqualTo(1);
        assertThat(deleted.err()).contains("couldn't find resource for \"openapi.example.com/v1, Resource=gizmos\"");
    }

    /** Built-in kinds are not in /openapi/v3 (see OpenApiV3Documents): explain says so, and does not fail worse. */
    @Test
    void explainOfABuiltInKindSaysItIsNotPublished() {
        assumeTrue(minorVersion >= 27, "kubectl explain reads OpenAPI v3 since 1.27");
        Result pods = kubectl("explain", "pods");

        assertThat(pods.exitCode()).isEqualTo(1);
        assertThat(pods.err()).isEqualTo("error: couldn't find resource for \"/v1, Resource=pods\"\n");
    }

    /**
     * Client-side apply patches a built-in kind's lists by their merge keys: a reapplied container env changes one
     * variable, deletes the one left out of the manifest and keeps the one someone else added. kubectl takes the
     * merge keys from /openapi/v3 when it lists the kind's group-version: were apps/v1 listed without them, kubectl
     * would send the env whole, with no deletion, and the server's strategic merge would keep OLD.
     */
    @Test
    void reapplyOfADeploymentMergesItsContainersEnv() throws IOException {
        String deployment = """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: merged
                spec:
                  replicas: 0
                  selector: {matchLabels: {app: merged}}
                  template:
                    metadata: {labels: {app: merged}}
                    spec:
                      containers:
                      - name: main
                        image: busybox
                        env: ENV
                """;
        Path first = Files.writeString(dir.resolve("merged-1.yaml"),
                deployment.replace("ENV", "[{name: MODE, value: one}, {name: OLD, value: gone}]"));
        Path second = Files.writeString(dir.resolve("merged-2.yaml"), deployment.replace("ENV", "[{name: MODE, value: two}]"));
        Result applied = kubectl("apply", "-f", first.toString());
        assertThat(applied.exitCode()).as(applied.err()).isZero();
        client.apps().deployments().inNamespace("default").withName("merged").edit(d -> {
            d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv()
                    .add(new EnvVar("EXTRA", "kept", null));
            return d;
        });

        Result reapplied = kubectl("apply", "-f", second.toString());

        assertThat(reapplied.exitCode()).as(reapplied.err()).isZero();
        var env = client.apps().deployments().inNamespace("default").withName("merged").get().getSpec().getTemplate()
                .getSpec().getContainers().get(0).getEnv();
        assertThat(env).extracting("name", "value").containsExactlyInAnyOrder(
                tuple("MODE", "two"), tuple("EXTRA", "kept"));
    }

    /** Kubernetes 1.36's Workload API, which neither kubectl release knows but reads from discovery. */
    @Test
    void applyAWorkloadItsPodGroupAndAPodOfTheGroup() {
        Result applied = kubectl("apply", "-f", manifest("workload-podgroup-and-pod.yaml"));
        assertThat(applied.exitCode()).as(applied.err()).isZero();
        assertThat(applied.out()).contains("workload.scheduling.k8s.io/trainer created",
                "podgroup.scheduling.k8s.io/trainer-workers created", "pod/trainer-worker-0 created");

        Result groups = kubectl("get", "podgroups.scheduling.k8s.io");
        assertThat(groups.exitCode()).as(groups.err()).isZero();
        assertThat(groups.out()).containsPattern("(?m)^trainer-workers\\s");
        Result workloads = kubectl("get", "workloads");
        assertThat(workloads.exitCode()).as(workloads.err()).isZero();
        assertThat(workloads.out()).containsPattern("(?m)^trainer\\s");
        Result group = kubectl("get", "pod", "trainer-worker-0", "-o", "jsonpath={.spec.schedulingGroup.podGroupName}");
        assertThat(group.exitCode()).as(group.err()).isZero();
        assertThat(group.out()).isEqualTo("trainer-workers");

        Result reapplied = kubectl("apply", "-f", manifest("workload-podgroup-and-pod.yaml"));
        assertThat(reapplied.exitCode()).as(reapplied.err()).isZero();
        assertThat(reapplied.out()).contains("podgroup.scheduling.k8s.io/trainer-workers unchanged");
        Result deleted = kubectl("delete", "-f", manifest("workload-podgroup-and-pod.yaml"), "--wait=false");
        assertThat(deleted.exitCode()).as(deleted.err()).isZero();
    }

    private Process start(String... args) throws IOException {
        return new ProcessBuilder(command(args)).redirectOutput(dir.resolve("wait.out").toFile())
                .redirectError(dir.resolve("wait.err").toFile()).start();
    }

    private List<String> command(String... args) {
        List<String> command = new ArrayList<>(List.of(executable.toString(), "--kubeconfig", kubeconfig.toString(),
                "--cache-dir", dir.resolve("cache").toString(), "--request-timeout", "20s"));
        command.addAll(List.of(args));
        return command;
    }

    private Result kubectl(String... args) {
        List<String> command = command(args);
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
}
