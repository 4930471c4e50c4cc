package dev.muster.job;

import dev.muster.job.decision.QueueGate;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.api.scheduling.v1alpha1.QueueAccess;
import dev.muster.api.scheduling.v1alpha1.QueueSpec;
import dev.muster.support.Stillness;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.awaitility.core.ThrowingRunnable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import static dev.muster.api.batch.v1alpha1.JobPhase.Pending;
import static dev.muster.api.batch.v1alpha1.JobPhase.Running;
import static dev.muster.job.Patience.PATIENCE;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Jobs and the queue they name, with the production controller, PodGroup controller and gang scheduler. */
@Tag("emulator")
class QueueLocalClusterTest extends LocalClusterTestBase {
    /** Long enough for the reconciles that a job's creation and its status writes wake. */
    private static final Duration HELD_WINDOW = Duration.ofSeconds(2);

    private static Queue queue(String name, String state) {
        Queue queue = new Queue();
        queue.setMetadata(new ObjectMetaBuilder().withName(name).build());
        QueueSpec spec = new QueueSpec();
        spec.setState(state);
        queue.setSpec(spec);
        queue.setStatus(null);
        return queue;
    }

    private static Job inQueue(String name, String queue) {
        Job job = newJob(name, null, runFor("600", task("worker", 2, null)));
        job.getSpec().setQueue(queue);
        return job;
    }

    /**
     * Asserts the hold while a twin of the held job, created after it and in the default queue, which lets it in, gets its two
     * pods (so the controllers were live and acting on new jobs), and for {@link #HELD_WINDOW} on.
     */
    private static void heldWhileATwinStarts(Job twin, ThrowingRunnable stillHeld) {
        create(twin);
        String name = twin.getMetadata().getName();
        Stillness.holds(PATIENCE, "its twin " + name + " got its pods", () -> pods(name).size() == 2, HELD_WINDOW,
                stillHeld);
    }

    @Test
    void aJobNamingAQueueThatDoesNotExistWaitsPendingWithoutPodGroupUntilTheQueueIsCreated() {
        create(inQueue("orphan", "research"));

        JobStatus held = await().atMost(PATIENCE).until(() -> status("orphan"),
                s -> s != null && QueueAccess.NOT_FOUND.equals(s.getState().getReason()));
        assertThat(held.getState().getPhase()).isEqualTo(Pending);
        assertThat(held.getState().getMessage()).isEqualTo("queue research does not exist; it waits until the queue is created");
        // kubectl describe shows it too: the Event of the job's first phase says the status's reason, not "waiting for pods".
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(events("orphan"))
                .anySatisfy(e -> {
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getReason()).isEqualTo(QueueAccess.NOT_FOUND);
                    assertThat(e.getMessage()).contains("queue research does not exist");
                })
                .noneSatisfy(e -> assertThat(e.getMessage()).contains("waiting for")));
        heldWhileATwinStarts(inQueue("orphan-twin", null), () -> {
            assertThat(pods("orphan")).isEmpty();
            assertThat(podGroup("orphan")).isEmpty();
        });

        client.resource(queue("research", null)).create();

        JobStatus running = await().atMost(PATIENCE).until(() -> status("orphan"), in(Running));
        assertThat(podGroup("orphan")).map(g -> g.getSpec().getQueue()).contains("research");
        assertThat(running.getRetryCount()).isZero();
    }

    @Test
    void aClosedQueueHoldsJobsThatHaveNotStartedAndLetsRunningOnesGoOn() {
        client.resource(queue("batch", QueueSpec.OPEN)).create();
        create(inQueue("early", "batch"));
        await().atMost(PATIENCE).until(() -> status("early"), in(Running));

        setState("batch", QueueSpec.CLOSED);
        create(inQueue("late", "batch"));

        JobStatus held = await().atMost(PATIENCE).until(() -> status("late"),
                s -> s != null && QueueAccess.CLOSED.equals(s.getState().getReason()));
        assertThat(held.getState().getPhase()).isEqualTo(Pending);
        assertThat(held.getState().getMessage()).isEqualTo("queue batch is Closed: its running jobs go on, new ones wait until it is Open");
        // The gang is proposed, so that it keeps its place in the queue; it gets no pods.
        await().atMost(PATIENCE).until(() -> podGroup("late"), Optional::isPresent);
        heldWhileATwinStarts(inQueue("late-twin", null), () -> assertThat(pods("late")).isEmpty());
        assertThat(status("early").getState().getPhase()).isEqualTo(Running);
        assertThat(podNames("early")).containsExactly("early-worker-0", "early-worker-1");

        setState("batch", QueueSpec.OPEN);

        await().atMost(PATIENCE).until(() -> status("late"), in(Running));
    }

    @Test
    void theQueueCrdIsClusterScopedAndRefusesWhatItsSchemaCanTell() {
        client.resource(queue("team", null)).create();
        assertThat(client.resources(Queue.class).withName("team").get().getMetadata().getNamespace()).isNull();
        assertThat(client.resources(Queue.class).list().getItems()).extracting(q -> q.getMetadata().getName()).contains("team");

        Queue ownParent = queue("loop", null);
        ownParent.getSpec().setParent("loop");
        assertThatThrownBy(() -> client.resource(ownParent).create()).isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("a queue cannot be its own parent");
        Queue weightless = queue("weightless", null);
        weightless.getSpec().setWeight(0);
        assertThatThrownBy(() -> client.resource(weightless).create()).isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("spec.weight");
        assertThatThrownBy(() -> client.resource(queue("ajar", "Ajar")).create()).isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("spec.state");
    }

    private static void setState(String queue, String state) {
        await().atMost(PATIENCE).ignoreException(KubernetesClientException.class).until(() -> {
            Queue current = client.resources(Queue.class).withName(queue).get();
            current.getSpec().setState(state);
            client.resource(current).update();
            return true;
        });
    }

    @Test
    void aJobNamingNoQueueIsInTheDefaultQueueAndIsNotHeldWhileThatQueueIsAbsent() {
        Job job = newJob("plain", null, task("worker", 1, null));
        assertThat(QueueGate.queueOf(job)).isEqualTo(Queue.DEFAULT);
        create(job);
        await().atMost(PATIENCE).until(() -> status("plain"), in(Running));

        client.resource(queue(Queue.DEFAULT, QueueSpec.CLOSED)).create();
        create(newJob("plain-late", null, task("worker", 1, null)));

        JobStatus held = await().atMost(PATIENCE).until(() -> status("plain-late"),
                s -> s != null && QueueAccess.CLOSED.equals(s.getState().getReason()));
        assertThat(held.getState().getMessage()).startsWith("queue default is Closed");
        setState(Queue.DEFAULT, QueueSpec.OPEN);
        await().atMost(PATIENCE).until(() -> status("plain-late"), in(Running));
        assertThat(podNames("plain-late")).containsExactly("plain-late-worker-0");
    }
    @Test
    void aJobInAQueueItsNamespaceMayNotUseWaitsQueueForbiddenAndStartsOnceTheNamespaceOrTheSelectorChanges() {
        String namespace = client.getNamespace();
        Queue gpu = queue("gpu", null);
        gpu.getSpec().setNamespaceSelector(new LabelSelectorBuilder().addToMatchLabels("team", "vision").build());
        client.resource(gpu).create();
        create(inQueue("intruder", "gpu"));

        JobStatus held = await().atMost(PATIENCE).until(() -> status("intruder"),
                s -> s != null && QueueAccess.FORBIDDEN.equals(s.getState().getReason()));
        assertThat(held.getState().getPhase()).isEqualTo(Pending);
        assertThat(held.getState().getMessage()).isEqualTo("namespace " + namespace + " may not use queue gpu: the "
                + "queue's spec.namespaceSelector does not select it; it waits until it does");
        // Not proposed: a gang its queue refuses holds no room and can make no queue reclaim for it.
        heldWhileATwinStarts(inQueue("intruder-twin", null), () -> {
            assertThat(pods("intruder")).isEmpty();
            assertThat(podGroup("intruder")).isEmpty();
        });

        client.namespaces().withName(namespace).edit(ns -> new NamespaceBuilder(ns).editMetadata()
                .addToLabels("team", "vision").endMetadata().build());

        await().atMost(PATIENCE).until(() -> status("intruder"), in(Running));
        assertThat(podGroup("intruder")).map(g -> g.getSpec().getQueue()).contains("gpu");

        // The other way in: the queue's selector changes to select the namespace.
        Queue audio = queue("audio", null);
        audio.getSpec().setNamespaceSelector(new LabelSelectorBuilder().addToMatchLabels("team", "audio").build());
        client.resource(audio).create();
        create(inQueue("guest", "audio"));
        await().atMost(PATIENCE).until(() -> status("guest"), s -> s != null && QueueAccess.FORBIDDEN.equals(s.getState().getReason()));
        await().atMost(PATIENCE).ignoreException(KubernetesClientException.class).until(() -> {
            Queue current = client.resources(Queue.class).withName("audio").get();
            current.getSpec().getNamespaceSelector().setMatchLabels(Map.of("team", "vision"));
            client.resource(current).update();
            return true;
        });
        await().atMost(PATIENCE).until(() -> status("guest"), in(Running));
    }

    @Test
    void aJobInAParentQueueWaitsQueueNotLeafAndStartsOnceTheQueueHasNoChildren() {
        client.resource(queue("org", null)).create();
        Queue team = queue("org-team", null);
        team.getSpec().setParent("org");
        client.resource(team).create();
        create(inQueue("too-high", "org"));

        JobStatus held = await().atMost(PATIENCE).until(() -> status("too-high"),
                s -> s != null && QueueAccess.NOT_LEAF.equals(s.getState().getReason()));
        assertThat(held.getState().getMessage())
                .isEqualTo("queue org has child queues (org-team); only leaf queues take jobs: name one of its leaves");
        assertThat(pods("too-high")).isEmpty();

        client.resources(Queue.class).withName("org-team").delete();

        await().atMost(PATIENCE).until(() -> status("too-high"), in(Running));
    }
}
