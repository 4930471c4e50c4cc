package dev.muster.job;

import dev.muster.job.lifecycle.JobFacts;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.batch.v1alpha1.JobValidationCorpusTest;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.muster.api.batch.v1alpha1.JobPhase.Completed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Failed;
import static dev.muster.job.Patience.PATIENCE;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The whole bad-input corpus (every validation case, plus values that do not fit the Java types at all) is
 * written to the store as raw JSON past the emulator's admission (which, like a real API server's, refuses
 * them), as a cluster without Muster's CRD schema or with an older one would keep them: every job
 * fails with InvalidSpec naming the field, and a valid job submitted after all of them still runs.
 */
@Tag("emulator")
class BadInputLocalClusterTest extends LocalClusterTestBase {

    private static final String WORKER = """
            {"name":"worker","replicas":%s,"template":{"spec":{"containers":[{"name":"m","image":"busybox"}]}}}""";

    /** Specs that cannot be read into the Java types, with the field the failure must name. */
    private static final Map<String, String[]> MALFORMED = Map.of(
            "replicas-string", new String[] {"{\"tasks\":[" + WORKER.formatted("\"three\"") + "]}", "spec.tasks[0].replicas"},
            "replicas-too-big", new String[] {"{\"tasks\":[" + WORKER.formatted("3000000000") + "]}", "spec.tasks[0].replicas"},
            "tasks-not-a-list", new String[] {"{\"tasks\":\"worker\"}", "spec.tasks"},
            "min-available-object", new String[] {"{\"minAvailable\":{\"n\":1},\"tasks\":[" + WORKER.formatted("1") + "]}",
                    "spec.minAvailable"},
            "policies-a-number", new String[] {"{\"policies\":7,\"tasks\":[" + WORKER.formatted("1") + "]}", "spec.policies"});

    /** Each case in a namespace of its own, named as in the corpus, whose messages name the job. */
    private static void createRaw(String namespace, String name, Object spec) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("spec", spec);
        GenericKubernetesResource job = new GenericKubernetesResource();
        job.setApiVersion(Job.API_VERSION);
        job.setKind(Job.KIND);
        job.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name)
                .withNamespace(namespace).build());
        job.setAdditionalProperties(fields);
        cluster.createWithoutAdmissionForTests(job);
    }

    @Test
    void everyBadJobFailsWithInvalidSpecNamingTheFieldAndTheNextJobStillRuns() {
        Map<String, List<String>> expected = new LinkedHashMap<>();
        JobValidationCorpusTest.corpus().forEach(arguments -> {
            Object[] args = arguments.get();
            String name = "corpus-" + expected.size();
            Job job = (Job) args[1];
            createRaw(name, job.getMetadata().getName(), Serialization.jsonMapper().convertValue(job.getSpec(), Map.class));
            @SuppressWarnings("unchecked")
            List<String> messages = (List<String>) args[3];
            expected.put(name, messages);
        });
        MALFORMED.forEach((name, specAndField) -> {
            createRaw(name, "train", Serialization.unmarshal(specAndField[0], Map.class));
            expected.put(name, List.of(specAndField[1] + ": "));
        });

        create(newJob("after-the-corpus", 1, runFor("1", task("worker", 1, null))));

        bindUntil("after-the-corpus", in(Completed));
        expected.forEach((namespace, messages) -> {
            JobStatus status = await().atMost(PATIENCE).until(
                    () -> client.resources(Job.class).inNamespace(namespace).withName("train").get().getStatus(),
                    in(Failed)::test);
            assertThat(status.getState().getReason()).as(namespace).isEqualTo(JobFacts.INVALID_SPEC);
            messages.forEach(m -> assertThat(status.getState().getMessage()).as(namespace).contains(m));
            assertThat(client.pods().inNamespace(namespace).list().getItems()).as(namespace).isEmpty();
        });
        await().atMost(PATIENCE).until(() -> client.v1().events().inNamespace("replicas-string").list().getItems()
                .stream().anyMatch(e -> "Unreadable".equals(e.getReason())));
    }
}
