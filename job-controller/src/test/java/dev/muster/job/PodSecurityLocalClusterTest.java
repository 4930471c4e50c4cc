package dev.muster.job;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.job.lifecycle.JobFacts;
import dev.muster.rendering.plugin.PyTorchPodPlugin;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static dev.muster.api.batch.v1alpha1.JobPhase.Completed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Failed;
import static dev.muster.job.Patience.PATIENCE;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Jobs in a namespace whose Pod Security label enforces {@code restricted}, as multi-tenant clusters label their
 * tenants' namespaces: a template whose pods the level refuses fails its job before the job has a PodGroup (the
 * Job controller's dry run gets the API server's 403), and a job whose template meets the level runs, the
 * containers Muster's plugins add to its pods included.
 */
@Tag("emulator")
class PodSecurityLocalClusterTest extends LocalClusterTestBase {
    private static final String TENANT = "tenant";

    @BeforeAll
    static void restrictedNamespace() {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(TENANT)
                .addToLabels("pod-security.kubernetes.io/enforce", "restricted").endMetadata().build()).create();
    }

    private static void createInTenant(Job job) {
        job.getMetadata().setNamespace(TENANT);
        create(job);
    }

    private static JobStatus tenantJobStatus(String name, Predicate<JobStatus> until) {
        return await().atMost(PATIENCE).until(() -> {
            Job job = client.resources(Job.class).inNamespace(TENANT).withName(name).get();
            return job == null ? null : job.getStatus();
        }, status -> status != null && until.test(status));
    }

    /** A task whose pods meet the restricted level: non-root, no escalation, no capabilities, the default seccomp. */
    private static TaskSpec restricted(TaskSpec task) {
        task.getTemplate().getSpec().setSecurityContext(new PodSecurityContextBuilder().withRunAsNonRoot(true)
                .withRunAsUser(1000L).withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile().build());
        task.getTemplate().getSpec().getContainers().get(0).setSecurityContext(new SecurityContextBuilder()
                .withAllowPrivilegeEscalation(false).withNewCapabilities().withDrop("ALL").endCapabilities().build());
        return task;
    }

    @Test
    void aTemplateTheNamespacesLevelRefusesFailsTheJobBeforeItHasAPodGroup() {
        createInTenant(newJob("plain", 1, task("worker", 1, null)));

        JobStatus status = tenantJobStatus("plain", in(Failed));

        assertThat(status.getState().getReason()).isEqualTo(JobFacts.INVALID_SPEC);
        assertThat(status.getState().getMessage()).startsWith("spec.tasks[0].template: the API server refused pod "
                + "plain-worker-0 in a dry run: pods \"plain-worker-0\" is forbidden: violates PodSecurity "
                + "\"restricted:latest\": allowPrivilegeEscalation != false (container \"main\" must set "
                + "securityContext.allowPrivilegeEscalation=false)");
        assertThat(client.resources(PodGroup.class).inNamespace(TENANT).withName("plain").get()).isNull();
        assertThat(client.pods().inNamespace(TENANT).list().getItems())
                .noneMatch(pod -> pod.getMetadata().getName().startsWith("plain-"));
    }

    @Test
    void aJobSubmittedAgainAfterTheNamespacesLevelIsRelaxedRuns() {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("relaxed")
                .addToLabels("pod-security.kubernetes.io/enforce", "restricted").endMetadata().build()).create();
        Job refused = newJob("again", 1, runFor("1", task("worker", 1, null)));
        refused.getMetadata().setNamespace("relaxed");
        create(refused);
        await().atMost(PATIENCE).until(() -> statusIn("relaxed", "again"), s -> s != null && in(Failed).test(s));

        client.namespaces().withName("relaxed").edit(ns -> {
            ns.getMetadata().getLabels().put("pod-security.kubernetes.io/enforce", "baseline");
            return ns;
        });
        client.resources(Job.class).inNamespace("relaxed").withName("again").delete();
        await().atMost(PATIENCE).until(() -> client.resources(Job.class).inNamespace("relaxed").withName("again").get() == null);
        Job resubmitted = newJob("again", 1, runFor("1", task("worker", 1, null)));
        resubmitted.getMetadata().setNamespace("relaxed");
        create(resubmitted);

        await().atMost(PATIENCE).until(() -> statusIn("relaxed", "again"), s -> s != null && in(Completed).test(s));
    }

    private static JobStatus statusIn(String namespace, String name) {
        Job job = client.resources(Job.class).inNamespace(namespace).withName(name).get();
        return job == null ? null : job.getStatus();
    }

    @Test
    void aPyTorchJobWhoseTemplateMeetsTheLevelRunsWithThePluginsWaitContainer() {
        Job job = newJob("ddp", null, restricted(runFor("1", task("master", 1, null))),
                restricted(runFor("1", task("worker", 2, null))));
        job.getSpec().setPlugins(new LinkedHashMap<>(Map.of("pytorch", List.of("--wait-master-enabled"))));
        createInTenant(job);

        tenantJobStatus("ddp", in(Completed));

        Pod worker = client.pods().inNamespace(TENANT).withName("ddp-worker-1").get();
        assertThat(worker.getSpec().getInitContainers()).extracting(Container::getName)
                .containsExactly(PyTorchPodPlugin.WAIT_CONTAINER);
    }
}
