package dev.muster.local;

import com.fasterxml.jackson.databind.JsonNode;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.JobState;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.batch.v1alpha1.JobValidationCorpusTest;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.muster.api.batch.v1alpha1.JobValidationCorpusTest.RULES_NOT_CHECKED;
import static dev.muster.api.batch.v1alpha1.JobValidationCorpusTest.worker;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The API server's admission of custom resources (structural schema, pruning, CEL rules including transition
 * rules, ratcheting, 422 {@code Invalid} with causes), each behaviour shown against the emulator over HTTP.
 */
@Tag("emulator")
class CrdAdmissionTest extends ApiOnlyClusterTests {
    private static final String JOBS = "/apis/batch.muster.dev/v1alpha1/namespaces/default/jobs";
    private static final String WIDGETS = "admission.example.com/v1";
    private static LocalCluster cluster;

    @BeforeAll
    static void installWidgets(LocalCluster shared) {
        cluster = shared;
        client.apiextensions().v1().customResourceDefinitions().load(
                CrdAdmissionTest.class.getResourceAsStream("/admission/widgets-crd.yaml")).create();
    }

    @Test
    void aWrongTypeIsRefusedWith422NamingTheFieldAndTheRulesAreNotRunAsByTheApiServer() {
        Map<String, Object> task = Map.of("name", "worker", "replicas", "three", "minAvailable", 5,
                "template", Map.of("spec", Map.of("containers", List.of(Map.of("name", "m", "image", "busybox")))));

        RawApi.Response response = api.post(JOBS, Map.of("apiVersion", "batch.muster.dev/v1alpha1", "kind", "Job",
                "metadata", Map.of("name", "three"), "spec", Map.of("tasks", List.of(task))));

        String typeError = "spec.tasks[0].replicas: Invalid value: \"string\": spec.tasks[0].replicas in body must be of type "
                + "integer: \"string\"";
        assertThat(response.code()).isEqualTo(422);
        assertThat(response.body().path("reason").asText()).isEqualTo("Invalid");
        assertThat(response.body().path("message").asText())
                .isEqualTo("Job.batch.muster.dev \"three\" is invalid: [" + typeError + ", " + RULES_NOT_CHECKED + "]");
        JsonNode cause = response.body().path("details").path("causes").get(0);
        assertThat(cause.path("reason").asText()).isEqualTo("FieldValueTypeInvalid");
        assertThat(cause.path("field").asText()).isEqualTo("spec.tasks[0].replicas");
        assertThat(cause.path("message").asText()).isEqualTo(typeError.substring("spec.tasks[0].replicas: ".length()));
    }

    @Test
    void unknownFieldsArePrunedSilentlyAtEveryLevelButBelowPreserveUnknownFieldsAsByTheApiServer() {
        Map<String, Object> task = new LinkedHashMap<>(Map.of("name", "worker", "colour", "blue",
                "template", Map.of("spec", Map.of("containers", List.of(Map.of("name", "m", "image", "busybox"))),
                        "kept", "below preserve-unknown-fields")));
        RawApi.Response response = api.post(JOBS, Map.of("apiVersion", "batch.muster.dev/v1alpha1", "kind", "Job",
                "metadata", Map.of("name", "pruned", "labels", Map.of("a", "b")), "extra", true,
                "spec", Map.of("unknown", 1, "tasks", List.of(task))));

        assertThat(response.code()).isEqualTo(201);
        JsonNode stored = api.get(JOBS + "/pruned").body();
        assertThat(stored.has("extra")).isFalse();
        assertThat(stored.path("spec").has("unknown")).isFalse();
        assertThat(stored.path("spec").path("tasks").get(0).has("colour")).isFalse();
        assertThat(stored.path("spec").path("tasks").get(0).path("template").path("kept").asText())
                .isEqualTo("below preserve-unknown-fields");
        assertThat(stored.path("metadata").path("labels").path("a").asText()).isEqualTo("b");
    }

    @Test
    void unknownFieldsAreWarnedAboutByDefaultAndRefusedWithFieldValidationStrictAsByTheApiServer() {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("minAvailabel", 1);
        spec.put("tasks", List.of(Map.of("name", "worker", "replica", 2, "template", Map.of("spec", Map.of("containers",
                List.of(Map.of("name", "m", "image", "busybox")))))));
        Map<String, Object> job = Map.of("apiVersion", "batch.muster.dev/v1alpha1", "kind", "Job",
                "metadata", Map.of("name", "typo"), "spec", spec);

        RawApi.Response strict = api.post(JOBS + "?fieldValidation=Strict", job);
        RawApi.Response warned = api.post(JOBS, job);

        assertThat(strict.code()).isEqualTo(400);
        assertThat(strict.body().path("reason").asText()).isEqualTo("BadRequest");
        assertThat(strict.body().path("message").asText()).isEqualTo("Job in version \"v1alpha1\" cannot be handled as a Job: "
                + "strict decoding error: unknown field \"spec.minAvailabel\", unknown field \"spec.tasks[0].replica\"");
        assertThat(warned.code()).isEqualTo(201);
        assertThat(warned.warnings()).containsExactly("299 - \"unknown field \\\"spec.minAvailabel\\\"\"",
                "299 - \"unknown field \\\"spec.tasks[0].replica\\\"\"");
    }

    @Test
    void transitionRulesRunOnUpdatesOnlyAsByTheApiServer() {
        Job created = client.resource(job("moves", "queue: research\ntasks:\n" + worker(""))).create();
        Job moved = Serialization.clone(created);
        moved.getSpec().setQueue("other");
        Job scaled = Serialization.clone(created);
        scaled.getSpec().getTasks().get(0).setReplicas(5);

        assertThat(causes(() -> client.resource(moved).update()))
                .containsExactly("spec.queue: Invalid value: \"string\": queue cannot change once the job exists");
        assertThat(client.resource(scaled).update().getSpec().getTasks().get(0).getReplicas()).isEqualTo(5);
    }

    @Test
    void scalingALiveJobBelowItsMinAvailableIsRefusedAtTheUpdateAsVolcanosWebhookRefusesIt() {
        client.resource(job("shrinks", "minAvailable: 3\ntasks:\n" + worker(""))).create();

        assertThat(causes(() -> client.resources(Job.class).withName("shrinks").edit(j -> {
            j.getSpec().getTasks().get(0).setReplicas(2);
            return j;
        }))).containsExactly("spec.minAvailable: Invalid value: \"object\": must not exceed the total replicas of all tasks (2), was 3");
        assertThat(client.resources(Job.class).withName("shrinks").get().getSpec().getTasks().get(0).getReplicas()).isEqualTo(3);
        assertThat(client.resources(Job.class).withName("shrinks").edit(j -> {
            j.getSpec().setMinAvailable(2);
            j.getSpec().getTasks().get(0).setReplicas(2);
            return j;
        }).getSpec().getTasks().get(0).getReplicas()).isEqualTo(2);
    }

    @Test
    void everyWriteRouteIsAdmittedPutMergePatchJsonPatchAndServerSideApply() {
        client.resource(job("routes", "tasks:\n" + worker(""))).create();
        String above = "spec.tasks[0]: Invalid value: \"object\": minAvailable must not exceed replicas";
        String path = JOBS + "/routes";

        assertThat(causes(() -> client.resources(Job.class).withName("routes").edit(j -> {
            j.getSpec().getTasks().get(0).setMinAvailable(9);
            return j;
        }))).as("JSON patch (fabric8's edit)").containsExactly(above);
        assertThat(causes(() -> client.resources(Job.class).withName("routes").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"spec\":{\"tasks\":[{\"name\":\"worker\",\"replicas\":1,\"minAvailable\":9}]}}")))
                .as("JSON merge patch").containsExactly(above);
        Job replaced = client.resources(Job.class).withName("routes").get();
        replaced.getSpec().getTasks().get(0).setMinAvailable(9);
        assertThat(causes(() -> client.resource(replaced).update())).as("PUT").containsExactly(above);
        // Forced: spec.tasks is the creator's, and an unforced apply would stop at the conflict, before admission.
        RawApi.Response applied = api.patch(path + "?fieldManager=test&force=true", "application/apply-patch+yaml",
                "{\"apiVersion\":\"batch.muster.dev/v1alpha1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"routes\"},"
                        + "\"spec\":{\"tasks\":[{\"name\":\"worker\",\"replicas\":1,\"minAvailable\":9}]}}");
        assertThat(applied.code()).as("server-side apply").isEqualTo(422);
        assertThat(client.resources(Job.class).withName("routes").get().getSpec().getTasks().get(0).getMinAvailable()).isNull();
    }

    @Test
    void aStatusWriteIsCheckedOnTheStatusOnlyAsByTheApiServer() {
        cluster.createWithoutAdmissionForTests(genericJob("invalid-spec", -1));
        Job stored = client.resources(Job.class).withName("invalid-spec").get();
        stored.setStatus(new JobStatus());
        stored.getStatus().setState(new JobState());
        stored.getStatus().getState().setPhase(JobPhase.Failed);

        assertThat(client.resource(stored).updateStatus().getStatus().getState().getPhase()).isEqualTo(JobPhase.Failed);
        RawApi.Response exploded = api.patch(JOBS + "/invalid-spec/status", "application/merge-patch+json",
                "{\"status\":{\"state\":{\"phase\":\"Exploded\"}}}");
        assertThat(exploded.code()).isEqualTo(422);
        assertThat(exploded.body().path("details").path("causes").get(0).path("field").asText()).isEqualTo("status.state.phase");
        assertThat(exploded.body().path("details").path("causes").get(0).path("message").asText()).startsWith(
                "Unsupported value: \"Exploded\": supported values: \"Aborted\", \"Aborting\", \"Completed\"");
    }

    @Test
    void anUpdateThatLeavesAnInvalidValueAloneIsAdmittedAsByTheApiServersRatcheting() {
        cluster.createWithoutAdmissionForTests(genericJob("ratcheted", -1));

        Job labelled = client.resources(Job.class).withName("ratcheted").edit(j -> {
            j.getMetadata().setLabels(Map.of("seen", "yes"));
            return j;
        });

        assertThat(labelled.getMetadata().getLabels()).containsEntry("seen", "yes");
        assertThat(causes(() -> client.resources(Job.class).withName("ratcheted").edit(j -> {
            j.getSpec().getTasks().get(0).setReplicas(-2);
            return j;
        }))).contains("spec.tasks[0].replicas: Invalid value: -2: spec.tasks[0].replicas in body should be greater than "
                + "or equal to 0");
    }

    @Test
    void aCrdTheUserAppliesIsEnforcedWithEveryKeywordAsByTheApiServer() {
        Map<String, Object> wrong = new LinkedHashMap<>(Map.of("size", true, "count", 11, "code", "abcd", "colour", "blue",
                "resource", Map.of("spec", 1)));
        assertThat(causes(() -> createWidget("types", wrong))).containsExactlyInAnyOrder(
                "spec.size: Invalid value: \"boolean\": spec.size in body must be of type integer,string: \"boolean\"",
                "spec.count: Invalid value: 11: spec.count in body should be less than or equal to 10",
                "spec.code: Too long: may not be more than 3 bytes",
                "spec.colour: Unsupported value: \"blue\": supported values: \"red\", \"green\"",
                "spec.resource.apiVersion: Required value",
                "spec.resource.kind: Required value",
                RULES_NOT_CHECKED);
        assertThat(causes(() -> createWidget("missing", Map.of("count", 1))))
                .containsExactly("spec.size: Required value", RULES_NOT_CHECKED);
        assertThat(causes(() -> createWidget("rules", Map.of("size", "3", "min", 300, "max", 200, "label", "x"))))
                .containsExactlyInAnyOrder(
                        "spec: Invalid value: \"object\": failed rule: !has(self.min) || !has(self.max) || self.min <= self.max",
                        "spec: Invalid value: \"object\": label must start with w-, was x",
                        "spec.max: Forbidden: max must stay below 100");
        assertThat(createWidget("valid", Map.of("size", 3, "note", "n", "extra", Map.of("any", List.of(1))))
                .<Object>get("spec"))
                .isEqualTo(Map.of("size", 3, "note", "n", "extra", Map.of("any", List.of(1))));
        assertThat(createWidget("nullable", mapWithNull("note")).<Object>get("spec")).isEqualTo(mapWithNull("note"));
    }

    /** Go clients write {@code "field": null} for every struct field without omitempty; kube-apiserver drops those. */
    @Test
    void nullsInFieldsThatAreNotNullableAreDroppedBeforeValidationAsByTheApiServer() {
        Map<String, Object> spec = mapWithNull("label");
        spec.put("size", 2);
        spec.put("count", null);

        GenericKubernetesResource created = createWidget("nulls", spec);

        assertThat(created.<Object>get("spec")).isEqualTo(Map.of("size", 2));
        assertThat(createWidget("kept-null", mapWithNull("note")).<Object>get("spec")).isEqualTo(mapWithNull("note"));
    }

    /**
     * Defaults fill absent fields and nulls that are not nullable, at every level where the parent exists, within
     * defaults too, on creates, updates and status writes; a field a default would fill below an absent object
     * stays absent, and a nullable null stays null.
     */
    @Test
    void theSchemasDefaultsAreFilledInAsByTheApiServer() {
        client.apiextensions().v1().customResourceDefinitions().load(
                CrdAdmissionTest.class.getResourceAsStream("/admission/tunables-crd.yaml")).create();
        String tunables = "/apis/admission.example.com/v1/namespaces/default/tunables";
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("mode", null);
        spec.put("note", null);
        spec.put("ports", List.of(Map.of("name", "http"), Map.of("name", "dns", "protocol", "UDP")));
        spec.put("pools", Map.of("gpu", Map.of(), "cpu", Map.of("weight", 4)));
        Map<String, Object> tunable = Map.of("apiVersion", "admission.example.com/v1", "kind", "Tunable",
                "metadata", Map.of("name", "t1"), "spec", spec);

        RawApi.Response created = api.post(tunables, tunable);

        assertThat(created.code()).isEqualTo(201);
        JsonNode stored = api.get(tunables + "/t1").body().path("spec");
        assertThat(stored.path("mode").asText()).isEqualTo("fast");
        assertThat(stored.path("replicas").asInt()).isEqualTo(1);
        assertThat(stored.path("note").isNull()).as(stored.toString()).isTrue();
        assertThat(stored.path("retry")).hasToString("{\"limit\":3,\"backoff\":\"10s\"}");
        assertThat(stored.has("tuning")).isFalse();
        assertThat(stored.path("ports").findValuesAsText("protocol")).containsExactly("TCP", "UDP");
        assertThat(stored.path("pools").path("gpu").path("weight").asInt()).isEqualTo(1);
        assertThat(stored.path("pools").path("cpu").path("weight").asInt()).isEqualTo(4);

        RawApi.Response patched = api.patch(tunables + "/t1", "application/merge-patch+json",
                "{\"spec\":{\"replicas\":null,\"tuning\":{}}}");
        assertThat(patched.code()).isEqualTo(200);
        assertThat(patched.body().path("spec").path("replicas").asInt()).isEqualTo(1);
        assertThat(patched.body().path("spec").path("tuning").path("depth").asInt()).isEqualTo(2);

        RawApi.Response status = api.patch(tunables + "/t1/status", "application/merge-patch+json",
                "{\"status\":{\"ready\":1}}");
        assertThat(status.code()).isEqualTo(200);
        assertThat(api.get(tunables + "/t1").body().path("status")).hasToString("{\"ready\":1,\"phase\":\"Pending\"}");
    }

    /** Muster's Queue as a user writes it, without the state and weight its CRD defaults. */
    @Test
    void aQueueGetsTheStateAndWeightItsCrdDefaults() {
        RawApi.Response created = api.post("/apis/scheduling.muster.dev/v1alpha1/queues",
                Map.of("apiVersion", "scheduling.muster.dev/v1alpha1", "kind", "Queue",
                        "metadata", Map.of("name", "defaulted"), "spec", Map.of("preemption", Map.of())));

        assertThat(created.code()).isEqualTo(201);
        JsonNode spec = created.body().path("spec");
        assertThat(spec.path("state").asText()).isEqualTo("Open");
        assertThat(spec.path("weight").asInt()).isEqualTo(1);
        assertThat(spec.path("preemption").path("reclaim").asBoolean(false)).isTrue();
        assertThat(spec.path("preemption").path("withinQueue").asText()).isEqualTo("LowerPriority");
    }

    /**
     * controller-gen declares the root metadata as {@code {type: object}}; kube-apiserver never prunes metadata by
     * the schema, and a cluster-scoped object has no namespace, not a null one, after an update.
     */
    @Test
    void aControllerGenCrdKeepsMetadataAndAClusterScopedObjectGetsNoNamespace() {
        client.apiextensions().v1().customResourceDefinitions().load(
                CrdAdmissionTest.class.getResourceAsStream("/admission/gadgets-crd.yaml")).create();
        String gadgets = "/apis/admission.example.com/v1/gadgets";
        Map<String, Object> gadget = Map.of("apiVersion", "admission.example.com/v1", "kind", "Gadget",
                "metadata", Map.of("name", "g1", "labels", Map.of("team", "a")), "spec", Map.of("size", 1));
        assertThat(api.post(gadgets, gadget).code()).isEqualTo(201);

        JsonNode stored = api.get(gadgets + "/g1").body();
        assertThat(stored.path("metadata").path("name").asText()).isEqualTo("g1");
        assertThat(stored.path("metadata").path("labels").path("team").asText()).isEqualTo("a");

        RawApi.Response updated = api.patch(gadgets + "/g1", "application/merge-patch+json", "{\"spec\":{\"size\":2}}");
        assertThat(updated.code()).isEqualTo(200);
        JsonNode replaced = api.put(gadgets + "/g1", api.get(gadgets + "/g1").body()).body();
        for (JsonNode after : List.of(updated.body(), replaced, api.get(gadgets + "/g1").body())) {
            assertThat(after.path("metadata").has("namespace")).as(after.toString()).isFalse();
            assertThat(after.path("metadata").path("labels").path("team").asText()).isEqualTo("a");
        }
        assertThat(api.get(gadgets).body().path("items").get(0).path("metadata").has("namespace")).isFalse();
    }

    @Test
    void aChangedCrdIsEnforcedFromItsNextWrite() {
        assertThat(createWidget("before-change", Map.of("size", 1, "count", 7)).getMetadata().getUid()).isNotBlank();

        client.apiextensions().v1().customResourceDefinitions().withName("widgets.admission.example.com").edit(crd -> {
            crd.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema().getProperties().get("spec")
                    .getProperties().get("count").setMaximum(5.0);
            return crd;
        });

        assertThat(causes(() -> createWidget("after-change", Map.of("size", 1, "count", 7))))
                .containsExactly("spec.count: Invalid value: 7: spec.count in body should be less than or equal to 5",
                        RULES_NOT_CHECKED);
        restoreWidgetsCrd();
    }

    private static void restoreWidgetsCrd() {
        CustomResourceDefinition original = client.apiextensions().v1().customResourceDefinitions()
                .load(CrdAdmissionTest.class.getResourceAsStream("/admission/widgets-crd.yaml")).item();
        client.apiextensions().v1().customResourceDefinitions().withName("widgets.admission.example.com").edit(crd -> {
            crd.setSpec(original.getSpec());
            return crd;
        });
    }

    private static GenericKubernetesResource createWidget(String name, Map<String, Object> spec) {
        GenericKubernetesResource widget = new GenericKubernetesResource();
        widget.setApiVersion(WIDGETS);
        widget.setKind("Widget");
        widget.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).build());
        widget.setAdditionalProperty("spec", spec);
        return client.genericKubernetesResources(WIDGETS, "Widget").resource(widget).create();
    }

    private static Map<String, Object> mapWithNull(String field) {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("size", "x");
        spec.put(field, null);
        return spec;
    }

    /** A job with one task of {@code replicas}, as raw JSON so that it may hold what the Java types refuse. */
    private static GenericKubernetesResource genericJob(String name, int replicas) {
        return Serialization.unmarshal("""
                {"apiVersion": "batch.muster.dev/v1alpha1", "kind": "Job", "metadata": {"name": "%s", "namespace": "default"},
                 "spec": {"tasks": [{"name": "worker", "replicas": %d,
                   "template": {"spec": {"containers": [{"name": "m", "image": "busybox"}]}}}]}}
                """.formatted(name, replicas), GenericKubernetesResource.class);
    }

    private static Job job(String name, String spec) {
        Job job = JobValidationCorpusTest.job(spec);
        job.getMetadata().setName(name);
        return job;
    }

    /** The causes of the 422 {@code Invalid} that {@code write} must fail with, as {@code field: message}. */
    private static List<String> causes(ThrowingCallable write) {
        KubernetesClientException refused = catchThrowableOfType(KubernetesClientException.class, write);
        assertThat(refused).as("refused").isNotNull();
        assertThat(refused.getCode()).isEqualTo(422);
        assertThat(refused.getStatus().getReason()).isEqualTo("Invalid");
        return refused.getStatus().getDetails().getCauses().stream().map(CrdAdmissionTest::asText).toList();
    }

    private static String asText(StatusCause cause) {
        return cause.getField() + ": " + cause.getMessage();
    }
}
