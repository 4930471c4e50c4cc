package dev.muster.job;

import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static dev.muster.api.batch.v1alpha1.JobPhase.Completed;
import static dev.muster.api.batch.v1alpha1.JobPhase.Running;
import static dev.muster.job.Patience.PATIENCE;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Job whose pods its namespace's ResourceQuota would refuse is not admitted until they fit (the local cluster
 * keeps the quota's {@code used} and refuses pods beyond it, as kube-apiserver and kube-controller-manager do): it
 * waits Pending with the quota named, creates no pod the API server would refuse, and runs once the pods before it
 * are done.
 */
@Tag("emulator")
class NamespaceQuotaLocalClusterTest extends LocalClusterTestBase {

    /** The tests share a cluster; each one's quota would hold the other's pods. */
    @AfterEach
    void deleteQuotas() {
        client.resourceQuotas().delete();
    }

    @Test
    void aJobWhosePodsTheQuotaWouldRefuseWaitsNamingItAndRunsWhenThereIsRoom() {
        client.resourceQuotas().resource(new ResourceQuotaBuilder().withNewMetadata().withName("one-pod").endMetadata()
                .withNewSpec().addToHard("pods", new Quantity("1")).endSpec().build()).create();
        create(newJob("first", 1, runFor("3", task("worker", 1, null))));
        await().atMost(PATIENCE).until(() -> status("first"), in(Running));

        create(newJob("second", 1, runFor("1", task("worker", 1, null))));

        JobStatus waiting = await().atMost(PATIENCE).until(() -> status("second"),
                s -> s != null && s.getState() != null && s.getState().getMessage() != null
                        && s.getState().getMessage().contains("exceeded quota"));
        assertThat(waiting.getState().getMessage()).contains("(exceeded quota: one-pod, requested: pods=1, used: pods=1, "
                + "limited: pods=1)");
        assertThat(pods("second")).isEmpty();
        await().atMost(PATIENCE).until(() -> status("second"), in(Completed));
        assertThat(eventReasons("second")).doesNotContain("FailedCreatePod");
    }

    @Test
    void aQuotaOnLimitsCountsTheLimitsTheJobsPodsWillHave() {
        client.resourceQuotas().resource(new ResourceQuotaBuilder().withNewMetadata().withName("cpu-limits").endMetadata()
                .withNewSpec().addToHard("limits.cpu", new Quantity("3")).endSpec().build()).create();
        create(newJob("limited-first", 1, runFor("3", limitedTo("2", task("worker", 1, null)))));
        await().atMost(PATIENCE).until(() -> status("limited-first"), in(Running));

        // Its pod asks for no cpu, but its 2-cpu limit would take the namespace past the quota's 3.
        create(newJob("limited-second", 1, runFor("1", limitedTo("2", task("worker", 1, null)))));

        JobStatus waiting = await().atMost(PATIENCE).until(() -> status("limited-second"),
                s -> s != null && s.getState() != null && s.getState().getMessage() != null
                        && s.getState().getMessage().contains("exceeded quota"));
        assertThat(waiting.getState().getMessage()).contains("(exceeded quota: cpu-limits, requested: limits.cpu=2, "
                + "used: limits.cpu=2, limited: limits.cpu=3)");
        assertThat(pods("limited-second")).isEmpty();
        await().atMost(PATIENCE).until(() -> status("limited-second"), in(Completed));
        assertThat(eventReasons("limited-second")).doesNotContain("FailedCreatePod");
    }

    /** The task's container limited to that much cpu, with no request of its own. */
    private static TaskSpec limitedTo(String cpu, TaskSpec task) {
        task.getTemplate().getSpec().getContainers().get(0).setResources(new ResourceRequirementsBuilder()
                .addToLimits("cpu", new Quantity(cpu)).build());
        return task;
    }

    @Test
    void aQuotaScopedToAPriorityClassHoldsOnlyThatClassesJobs() {
        client.resources(PriorityClass.class).resource(new PriorityClassBuilder().withNewMetadata()
                .withName("quota-high").endMetadata().withValue(1000).build()).create();
        client.resourceQuotas().resource(new ResourceQuotaBuilder().withNewMetadata().withName("one-high").endMetadata()
                .withNewSpec().addToHard("pods", new Quantity("1")).withNewScopeSelector().addNewMatchExpression()
                .withScopeName("PriorityClass").withOperator("In").withValues("quota-high").endMatchExpression()
                .endScopeSelector().endSpec().build()).create();
        create(newJob("high-first", 1, runFor("3", ofClass("quota-high", task("worker", 1, null)))));
        await().atMost(PATIENCE).until(() -> status("high-first"), in(Running));

        create(newJob("high-second", 1, runFor("1", ofClass("quota-high", task("worker", 1, null)))));
        create(newJob("unscoped", 1, runFor("1", task("worker", 1, null))));

        JobStatus waiting = await().atMost(PATIENCE).until(() -> status("high-second"),
                s -> s != null && s.getState() != null && s.getState().getMessage() != null
                        && s.getState().getMessage().contains("exceeded quota"));
        assertThat(waiting.getState().getMessage()).contains("(exceeded quota: one-high, requested: pods=1, used: pods=1, "
                + "limited: pods=1)");
        assertThat(pods("high-second")).isEmpty();
        await().atMost(PATIENCE).until(() -> status("unscoped"), in(Completed));
        await().atMost(PATIENCE).until(() -> status("high-second"), in(Completed));
        assertThat(eventReasons("high-second")).doesNotContain("FailedCreatePod");
    }

    @Test
    void aQuotaScopedToTheGlobalDefaultClassHoldsTheJobsThatNameNoClass() {
        // The API server gives a pod that names no class the global default's name, and the quota's scope sees it.
        client.resources(PriorityClass.class).resource(new PriorityClassBuilder().withNewMetadata()
                .withName("quota-standard").endMetadata().withValue(10).withGlobalDefault(true).build()).create();
        try {
            client.resourceQuotas().resource(new ResourceQuotaBuilder().withNewMetadata().withName("one-standard")
                    .endMetadata().withNewSpec().addToHard("pods", new Quantity("1")).withNewScopeSelector()
                    .addNewMatchExpression().withScopeName("PriorityClass").withOperator("In")
                    .withValues("quota-standard").endMatchExpression().endScopeSelector().endSpec().build()).create();
            create(newJob("standard-first", 1, runFor("3", task("worker", 1, null))));
            await().atMost(PATIENCE).until(() -> status("standard-first"), in(Running));

            create(newJob("standard-second", 1, runFor("1", task("worker", 1, null))));

            JobStatus waiting = await().atMost(PATIENCE).until(() -> status("standard-second"),
                    s -> s != null && s.getState() != null && s.getState().getMessage() != null
                            && s.getState().getMessage().contains("exceeded quota"));
            assertThat(waiting.getState().getMessage()).contains("the pods of its quorum would exceed its namespace's "
                    + "quota").contains("(exceeded quota: one-standard, requested: pods=1, used: pods=1, limited: pods=1)");
            assertThat(pods("standard-second")).isEmpty();
            await().atMost(PATIENCE).until(() -> status("standard-second"), in(Completed));
            assertThat(eventReasons("standard-second")).doesNotContain("FailedCreatePod");
        } finally {
            client.resources(PriorityClass.class).withName("quota-standard").delete();
        }
    }

    private static TaskSpec ofClass(String priorityClass, TaskSpec task) {
        task.getTemplate().getSpec().setPriorityClassName(priorityClass);
        return task;
    }
}
