package dev.muster.job;

import dev.muster.gang.JobAdmissionRule;
import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.podgroup.PodGroupController;
import dev.muster.scheduler.GangScheduler;
import dev.muster.scheduler.GangSchedulerConfig;
import dev.muster.gang.GangVerdictBoard;
import dev.muster.support.status.StatusWriter;
import dev.muster.support.informer.SharedInformers;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;

import static dev.muster.job.Patience.PATIENCE;
import static org.awaitility.Awaitility.await;

/**
 * A Job controller against the embedded API emulator, through the real HTTP client, for scenario tests. By
 * default it runs as in production: gated on admission by scheduler {@code muster}, with the real gang
 * scheduler and PodGroup controller beside it. A test class whose point is another setting starts
 * without them ({@link #startWith(JobAdmissionRule)} with the rule off) and binds pods itself.
 */
abstract class LocalClusterTestBase {
    static LocalCluster cluster;
    static KubernetesClient client;
    static SharedInformers informers;
    static JobController controller;
    static GangScheduler scheduler;
    static PodGroupController podGroups;

    /** As in production; a subclass that declares its own {@code start()} hides this one. */
    @BeforeAll
    static void start() {
        startWith(JobAdmissionRule.ON);
    }

    /**
     * Starts the cluster and a controller with the admission rule; with the rule on, also the gang scheduler
     * and the PodGroup controller; off, the controller alone, creating pods at once.
     */
    static void startWith(JobAdmissionRule admission) {
        startWith(admission, admission.enabled());
    }

    /** As {@link #startWith(JobAdmissionRule)}, choosing whether the gang scheduler and PodGroup controller run. */
    static void startWith(JobAdmissionRule admission, boolean runScheduler) {
        startWith(LocalClusterConfig.defaults().withNodes(1).withPodStartDelay(Duration.ofMillis(200)),
                JobControllerConfig.defaults().withAdmission(admission), runScheduler);
    }

    /** A cluster and a controller of the given settings, with the gang scheduler and PodGroup controller or without. */
    static void startWith(LocalClusterConfig clusterConfig, JobControllerConfig config, boolean runScheduler) {
        JobAdmissionRule admission = config.admission();
        cluster = LocalCluster.start(clusterConfig);
        client = cluster.client();
        informers = new SharedInformers(client);
        controller = new JobController(client, informers, config, Clock.systemUTC());
        scheduler = null;
        podGroups = null;
        if (runScheduler) {
            GangVerdictBoard board = new GangVerdictBoard();
            podGroups = new PodGroupController(client, informers, board, new StatusWriter(client));
            scheduler = new GangScheduler(client, informers, board, GangSchedulerConfig.defaults().withJobAdmission(admission));
        }
        informers.start();
        controller.start();
        if (scheduler != null) {
            podGroups.start();
            scheduler.start();
        }
    }

    @AfterAll
    static void stop() {
        if (scheduler != null) {
            scheduler.close();
            podGroups.close();
            scheduler = null;
            podGroups = null;
        }
        controller.close();
        informers.close();
        cluster.close();
    }

    /** A job to submit: the API server assigns the uid. */
    static Job newJob(String name, Integer minAvailable, TaskSpec... tasks) {
        Job job = TestJobs.job(name, tasks);
        job.getMetadata().setUid(null);
        job.getSpec().setMinAvailable(minAvailable);
        return job;
    }

    /** The simulated kubelet runs the task's pods for that many seconds. */
    static TaskSpec runFor(String seconds, TaskSpec task) {
        task.getTemplate().getMetadata().getAnnotations().put(MusterLabels.LOCAL_RUN_SECONDS, seconds);
        return task;
    }

    /** The simulated kubelet ends the task's pods with that exit code. */
    static TaskSpec exitWith(int code, TaskSpec task) {
        task.getTemplate().getMetadata().getAnnotations().put(MusterLabels.LOCAL_EXIT_CODE, Integer.toString(code));
        return task;
    }

    /**
     * Makes the simulated kubelet end this one pod with that exit code. A JSON merge patch of the annotation alone:
     * the scheduler and the kubelet write the pod meanwhile, and an edit carrying the resourceVersion read before
     * them would be refused with a conflict.
     */
    static void failPodWith(String podName, int code) {
        client.pods().withName(podName).patch(PatchContext.of(PatchType.JSON_MERGE),
                Serialization.asJson(Map.of("metadata", Map.of("annotations",
                        Map.of(MusterLabels.LOCAL_EXIT_CODE, Integer.toString(code))))));
    }

    static void create(Job job) {
        client.resource(job).create();
    }

    /**
     * Creates a job that the API server's admission (the CRD's schema and CEL rules) would refuse, as a cluster
     * with an older CRD would have kept it, to show what the controller does with it.
     */
    static void createPastAdmission(Job job) {
        cluster.createWithoutAdmissionForTests(Serialization.unmarshal(Serialization.asJson(job), GenericKubernetesResource.class));
    }

    /** Changes the job's spec; the controller writes its status meanwhile, so a conflict is retried. */
    static void editSpec(String name, Consumer<Job> change) {
        await().atMost(PATIENCE).ignoreException(KubernetesClientException.class).until(() -> {
            Job job = job(name);
            change.accept(job);
            client.resource(job).update();
            return true;
        });
    }

    static Job job(String name) {
        return client.resources(Job.class).withName(name).get();
    }

    static JobStatus status(String name) {
        return job(name).getStatus();
    }

    static JobPhase phaseOf(JobStatus status) {
        return status == null || status.getState() == null ? null : status.getState().getPhase();
    }

    static Predicate<JobStatus> in(JobPhase phase) {
        return s -> phaseOf(s) == phase;
    }

    static Optional<PodGroup> podGroup(String name) {
        return Optional.ofNullable(client.resources(PodGroup.class).withName(name).get());
    }

    static List<Pod> pods(String job) {
        return client.pods().withLabel(MusterLabels.JOB_NAME, job).list().getItems();
    }

    static List<String> podNames(String job) {
        return pods(job).stream().map(p -> p.getMetadata().getName()).sorted().toList();
    }

    static List<String> eventReasons(String involvedObject) {
        return events(involvedObject).stream().map(Event::getReason).toList();
    }

    static List<Event> events(String involvedObject) {
        return client.v1().events().list().getItems().stream()
                .filter(e -> involvedObject.equals(e.getInvolvedObject().getName()))
                .toList();
    }

    /** Stands in for the gang scheduler: binds every unbound pod of the job to node-0. */
    static void bindUnboundPods(String job) {
        for (Pod pod : pods(job)) {
            if (pod.getSpec().getNodeName() == null && pod.getMetadata().getDeletionTimestamp() == null) {
                try {
                    client.bindings().inNamespace(pod.getMetadata().getNamespace()).resource(new BindingBuilder()
                            .withNewMetadata().withName(pod.getMetadata().getName()).endMetadata()
                            .withNewTarget().withApiVersion("v1").withKind("Node").withName("node-0").endTarget()
                            .build()).create();
                } catch (KubernetesClientException e) {
                    // Deleted or bound meanwhile: the controller restarts pods while the test binds them.
                }
            }
        }
    }

    /** Keeps binding the job's pods, as a scheduler would, until its status matches. */
    static JobStatus bindUntil(String job, Predicate<JobStatus> done) {
        return await().atMost(PATIENCE).pollInterval(Duration.ofMillis(100)).until(() -> {
            bindUnboundPods(job);
            return status(job);
        }, s -> s != null && done.test(s));
    }
}
