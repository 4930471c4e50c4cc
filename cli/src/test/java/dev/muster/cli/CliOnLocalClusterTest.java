package dev.muster.cli;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.api.scheduling.v1alpha1.QueueAccess;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.manager.MusterApplication;
import dev.muster.manager.QueueFixtures;
import dev.muster.cli.CliRunner.Result;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static dev.muster.cli.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The commands against a local cluster of three nodes with 4 GPUs each and the whole manager: one job
 * holds every GPU, two queue behind it and one asks for more GPUs than any node has; in another namespace
 * a suspended job, one in a Closed queue and one naming a queue that does not exist. The queues: {@code org}
 * with children {@code research} and {@code archive} (Closed), and {@code default}, which the manager creates.
 * Every command's output is compared whole, with ages made 3d by {@link CliRunner}'s clock.
 *
 * <p>The queues' status is the scheduler's, after its cycles on this workload (org's weight 3 against default's 1
 * gives it 9 of the 12 GPUs as fair share; the job of the Closed queue archive waits there, and the scheduler's
 * queue lists only the gangs it tries, so eval is 2nd and giant 3rd).
 */
@Tag("emulator")
class CliOnLocalClusterTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String NO_GPUS = "0/3 nodes are available: 3 Insufficient nvidia.com/gpu.";
    /** What a gang of the default queue is told while it waits out its reclaim delay (research holds above its share). */
    private static final String RECLAIM_WAIT = "Reclaim: queue default may take back room from other queues for it "
            + "once it has waited the queue's reclaimDelay of 3600s, at <time>.";

    @TempDir
    static Path dir;
    private static LocalCluster cluster;
    private static ConfigurableApplicationContext manager;
    private static CliRunner muster;
    private static String managerUrl;

    @BeforeAll
    static void startAndQueue() throws Exception {
        cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(3).withNodeGpus(4));
        manager = MusterApplication.start(Map.of("muster.kubernetes.master-url", cluster.url(), "server.port", 0,
                "server.address", "127.0.0.1", "spring.main.banner-mode", "off", "muster.leader-election.enabled", false));
        managerUrl = "http://127.0.0.1:" + manager.getEnvironment().getProperty("local.server.port");
        muster = new CliRunner(cluster, dir);
        QueueFixtures.create(cluster.client(), "org", "{weight: 3, guarantee: {nvidia.com/gpu: '6'}, limit: {nvidia.com/gpu: '12'}}");
        QueueFixtures.create(cluster.client(), "research", "{parent: org, weight: 2, guarantee: {nvidia.com/gpu: '4'}, "
                + "limit: {nvidia.com/gpu: '12'}, preemption: {withinQueue: Never, reclaimDelay: 1m}}");
        QueueFixtures.create(cluster.client(), "archive", "{parent: org, state: Closed, guarantee: {nvidia.com/gpu: '2'}}");
        CliRunner.apply(cluster, dir, job("train", "research", null, 3, 4, true));
        await().atMost(PATIENCE).until(() -> phase("train") == JobPhase.Running
                && cluster.client().resources(Job.class).withName("train").get().getStatus().getRunning() == 4);
        // Priorities order the queue, whatever the order the scheduler met them in: tune, eval, giant.
        CliRunner.apply(cluster, dir, """
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: urgent}
                value: 1000
                ---
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: normal}
                value: 100
                """);
        // The default queue's gangs may reclaim from research, which holds more than its fair share: a delay of an
        // hour keeps them waiting, as the pages below show them, for the whole class.
        await().atMost(PATIENCE).until(() -> cluster.client().resources(Queue.class).withName(Queue.DEFAULT).get() != null);
        // A merge patch: the scheduler writes the queue's status meanwhile, which an edit would meet as a conflict.
        cluster.client().resources(Queue.class).withName(Queue.DEFAULT).patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"spec\":{\"preemption\":{\"reclaimDelay\":\"1h\"}}}");
        CliRunner.apply(cluster, dir, job("tune", null, "urgent", 2, 4, false));
        CliRunner.apply(cluster, dir, job("eval", null, "normal", 1, 4, false));
        CliRunner.apply(cluster, dir, job("giant", null, null, 1, 16, false));
        CliRunner.apply(cluster, dir, """
                apiVersion: v1
                kind: Namespace
                metadata: {name: team-b}
                ---
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: notebook, namespace: team-b}
                spec:
                  suspend: true
                  tasks:
                  - name: main
                    template:
                      spec:
                        containers: [{name: main, image: jupyter/base-notebook}]
                ---
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: old, namespace: team-b}
                spec:
                  queue: archive
                  tasks:
                  - name: main
                    template:
                      spec:
                        containers: [{name: main, image: busybox}]
                ---
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: lost, namespace: team-b}
                spec:
                  queue: nope
                  tasks:
                  - name: main
                    template:
                      spec:
                        containers: [{name: main, image: busybox}]
                """);
        await().atMost(PATIENCE).until(() -> muster.run("jobs", "-n", "team-b").out().contains("Suspended")
                && reason("team-b", "old").equals(QueueAccess.CLOSED) && reason("team-b", "lost").equals(QueueAccess.NOT_FOUND));
        await().atMost(PATIENCE).until(() -> cluster.client().resources(Queue.class).withName(Queue.DEFAULT).get() != null);
        // The scheduler writes the queues' status after its cycles; wait until it tells of every waiting gang.
        await().atMost(PATIENCE).until(() -> pendingGangs(Queue.DEFAULT) == 3 && pendingGangs("archive") == 1
                && pendingGangs("org") == 1);
        // Events are written shortly after the status that announces them: wait for both, the Job's and the group's.
        for (String name : new String[]{"tune", "eval", "giant"}) {
            await().atMost(PATIENCE).until(() -> {
                String out = muster.run("describe", "job", name).out();
                return out.contains("Unschedulable") && out.contains("Job/" + name) && out.contains("FailedScheduling");
            });
        }
        // describe gives the manager 3 s; its first answer (a cold DispatcherServlet, the first token and access
        // reviews) can take longer on a loaded machine: wait until it answers the kubeconfig's token.
        await().atMost(PATIENCE).until(() -> HTTP.send(HttpRequest.newBuilder(URI.create(managerUrl + "/actuator/queue"))
                .header("Authorization", "Bearer " + muster.token).build(), HttpResponse.BodyHandlers.ofString())
                .statusCode() == 200);
    }

    @AfterAll
    static void stop() {
        if (manager != null) {
            manager.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void jobsShowQueuePhaseReasonRunningPodsPerTaskAndAge() {
        assertThat(muster.run("jobs")).isEqualTo(ok("""
                NAME    QUEUE      PHASE     REASON                TASKS                    AGE
                eval    default    Pending   Created               worker 0/1               3d
                giant   default    Pending   Created               worker 0/1               3d
                train   research   Running   MinAvailableReached   master 1/1, worker 3/3   3d
                tune    default    Pending   Created               worker 0/2               3d
                """));
    }

    @Test
    void jobsAcrossAllNamespacesPutTheNamespaceFirst() {
        assertThat(muster.run("jobs", "-A")).isEqualTo(ok("""
                NAMESPACE   NAME       QUEUE      PHASE     REASON                TASKS                    AGE
                default     eval       default    Pending   Created               worker 0/1               3d
                default     giant      default    Pending   Created               worker 0/1               3d
                default     train      research   Running   MinAvailableReached   master 1/1, worker 3/3   3d
                default     tune       default    Pending   Created               worker 0/2               3d
                team-b      lost       nope       Pending   QueueNotFound         main 0/1                 3d
                team-b      notebook   default    Aborted   Suspended             main 0/1                 3d
                team-b      old        archive    Pending   QueueClosed           main 0/1                 3d
                """));
        assertThat(muster.run("jobs", "-n", "team-b").out()).startsWith("NAME       QUEUE").contains("notebook")
                .doesNotContain("train");
        assertThat(muster.run("describe", "job", "notebook", "-n", "team-b").out()).contains(
                "\nWhy it waits:\n  suspended: spec.suspend is true; muster resume job notebook lets it run\n");
    }

    @Test
    void podGroupsShowPhaseQuorumAndCounts() {
        assertThat(muster.run("pg")).isEqualTo(ok("""
                NAME    PHASE     MIN   RUNNING   SUCCEEDED   FAILED   AGE
                eval    Pending   1     0         0           0        3d
                giant   Pending   1     0         0           0        3d
                train   Running   4     4         0           0        3d
                tune    Pending   2     0         0           0        3d
                """));
    }

    @Test
    void describeARunningJob() {
        assertDescribe(muster.run("describe", "job", "train"), """
                Name:           train
                Namespace:      default
                Queue:          research
                Scheduler:      muster
                Priority class: <none>
                Min available:  4
                Suspend:        false
                Phase:          Running (MinAvailableReached)
                Message:        4/4 pods running or finished, minAvailable 4
                Age:            3d
                Tasks:
                  NAME     REPLICAS   MIN   REQUESTS PER POD                    PENDING   RUNNING   SUCCEEDED   FAILED
                  master   1          1     cpu=1,memory=2Gi                    0         1         0           0
                  worker   3          3     cpu=2,memory=8Gi,nvidia.com/gpu=4   0         3         0           0
                Phase history:
                  AGE   PHASE     REASON
                  3d    Pending
                  3d    Running   MinAvailableReached
                PodGroup train: Running, min member 4, running 4, succeeded 0, failed 0
                  TYPE        STATUS   REASON      AGE   MESSAGE
                  Scheduled   True     Scheduled   3d    4 pod(s) placed or bound; minMember 4 met.
                Events:
                  AGE   TYPE     REASON                OBJECT           MESSAGE
                  3d    Normal   Created               Job/train        Pending: waiting for 4 of 4 pods to start (minAvailable 4)
                  3d    Normal   Scheduled             PodGroup/train   4 pod(s) placed or bound; minMember 4 met.
                  3d    Normal   MinAvailableReached   Job/train        Pending -> Running: 4/4 pods running or finished, minAvailable 4
                """);
    }

    @Test
    void describeAJobQueuedBehindAnotherForGpusSaysItsPlaceInTheSchedulersQueue() {
        assertDescribe(muster.run("describe", "job", "eval", "--manager-url", managerUrl), """
                Name:           eval
                Namespace:      default
                Queue:          default
                Scheduler:      muster
                Priority class: normal
                Min available:  1
                Suspend:        false
                Phase:          Pending (Created)
                Message:        waiting for scheduler muster to admit PodGroup eval: %s
                Age:            3d
                Tasks:
                  NAME     REPLICAS   MIN   REQUESTS PER POD                    PENDING   RUNNING   SUCCEEDED   FAILED
                  worker   1          1     cpu=2,memory=8Gi,nvidia.com/gpu=4   0         0         0           0
                Phase history:
                  AGE   PHASE     REASON
                  3d    Pending   Created
                PodGroup eval: Pending, min member 1, running 0, succeeded 0, failed 0
                  TYPE            STATUS   REASON               AGE   MESSAGE
                  Unschedulable   True     NotEnoughResources   3d    %<s
                Events:
                  AGE   TYPE      REASON             OBJECT          MESSAGE
                  3d    Normal    Created            Job/eval        Pending: waiting for 1 of 1 pods to start (minAvailable 1)
                  3d    Warning   FailedScheduling   PodGroup/eval   %<s
                  3d    Warning   PodGroupPending    Job/eval        PodGroup eval is unschedulable: %<s
                Why it waits:
                  2nd in the scheduler's queue; %<s
                """.formatted(NO_GPUS + " The gang needs 1 pod(s) placed at once for minMember 1. " + RECLAIM_WAIT));
    }

    @Test
    void withoutTheManagerWhyItWaitsComesFromThePodGroupsCondition() {
        assertThat(reclaimTimeHidden(muster.run("describe", "job", "eval").out())).endsWith("""
                Why it waits:
                  %s The gang needs 1 pod(s) placed at once for minMember 1. %s
                """.formatted(NO_GPUS, RECLAIM_WAIT));
        assertThat(muster.run("describe", "job", "eval", "--manager-url", "http://127.0.0.1:1").out())
                .contains("Why it waits:\n  " + NO_GPUS)
                .contains("\n  (the manager at http://127.0.0.1:1 did not answer: java.net.ConnectException");
    }

    @Test
    void describeAJobAskingMoreGpusThanAnyNodeHasSaysItCanNeverRun() {
        assertThat(reclaimTimeHidden(muster.run("describe", "job", "giant", "--manager-url", managerUrl).out())).endsWith("""
                Why it waits:
                  can never run: each worker pod asks for 16 nvidia.com/gpu, the largest node has 4
                  3rd in the scheduler's queue; %s The gang needs 1 pod(s) placed at once for minMember 1. %s
                """.formatted(NO_GPUS, RECLAIM_WAIT));
    }

    @Test
    void queuesShowTheirSpecAndWhatTheSchedulerWroteInTheirStatus() {
        // Amount changes are written paced (the counter-write interval): wait for the last of them.
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(muster.run("queues")).isEqualTo(ok("""
                NAME       PARENT   WEIGHT   STATE    GUARANTEE          LIMIT               ALLOCATED                             FAIR SHARE                           PENDING   RUNNING
                archive    org      1        Closed   nvidia.com/gpu=2   <none>              <none>                                <none>                               1         0
                default    <none>   1        Open     <none>             <none>              <none>                                cpu=8,memory=32Gi,nvidia.com/gpu=3   3         0
                org        <none>   3        Open     nvidia.com/gpu=6   nvidia.com/gpu=12   cpu=7,memory=26Gi,nvidia.com/gpu=12   cpu=7,memory=26Gi,nvidia.com/gpu=9   1         1
                research   org      2        Open     nvidia.com/gpu=4   nvidia.com/gpu=12   cpu=7,memory=26Gi,nvidia.com/gpu=12   cpu=7,memory=26Gi,nvidia.com/gpu=9   0         1
                """)));
        assertThat(muster.run("q")).isEqualTo(muster.run("queues"));
    }

    @Test
    void describeAQueueShowsItsResourcesConditionsAndJobs() {
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(muster.run("describe", "queue", "research")).isEqualTo(ok("""
                Name:           research
                Parent:         org
                Children:       <none>
                Weight:         2
                State:          Open
                Preemption:     withinQueue Never, reclaim after 1m
                Pending gangs:  0
                Running gangs:  1
                Age:            3d
                Resources:
                  RESOURCE         GUARANTEE   LIMIT   ALLOCATED   FAIR SHARE   DEMAND
                  cpu              -           -       7           7            7
                  memory           -           -       26Gi        26Gi         26Gi
                  nvidia.com/gpu   4           12      12          9            12
                Conditions:
                  TYPE    STATUS   REASON   AGE   MESSAGE
                  Valid   True     Valid    3d    the queue's spec and its place in the queue tree are valid
                Jobs:
                  NAMESPACE   NAME    PHASE     REASON                TASKS                    AGE
                  default     train   Running   MinAvailableReached   master 1/1, worker 3/3   3d
                """)));
        assertThat(muster.run("describe", "q", "org").out()).contains("""
                Parent:         <none>
                Children:       archive, research
                Weight:         3
                """).endsWith("Jobs:\n  <none>\n");
        assertThat(muster.run("describe", "queue", "archive").out()).contains("""
                State:          Closed
                Preemption:     withinQueue LowerPriority, reclaim after 30s
                """).endsWith("""
                Jobs:
                  NAMESPACE   NAME   PHASE     REASON        TASKS      AGE
                  team-b      old    Pending   QueueClosed   main 0/1   3d
                """);
    }

    @Test
    void aJobHeldByItsQueueSaysSoPlainly() {
        // The scheduler may hold room for the Closed queue's gang; the job controller creates no pod for it.
        assertThat(muster.run("describe", "job", "old", "-n", "team-b", "--manager-url", managerUrl).out()).endsWith("""
                Why it waits:
                  queue archive is Closed: the job starts once its spec.state is Open (muster describe queue archive)
                """);
        assertThat(muster.run("describe", "job", "lost", "-n", "team-b", "--manager-url", managerUrl).out()).contains("""
                Queue:          nope
                """).contains("""
                PodGroup: <none>
                """).endsWith("""
                Why it waits:
                  queue nope does not exist: the job starts once it is created (muster queues lists the queues)
                """);
    }

    @Test
    void machineReadableOutput() throws Exception {
        var json = new ObjectMapper();
        JsonNode jobs = json.readTree(muster.run("jobs", "-o", "json").out());
        assertThat(jobs.path("kind").asText()).isEqualTo("List");
        assertThat(jobs.path("items").valueStream().map(item -> item.at("/metadata/name").asText())).containsExactly("eval", "giant", "train", "tune");

        JsonNode giant = json.readTree(muster.run("describe", "job", "giant", "-o", "json").out());
        assertThat(giant.at("/job/metadata/name").asText()).isEqualTo("giant");
        assertThat(giant.at("/podGroup/status/phase").asText()).isEqualTo("Pending");
        assertThat(giant.at("/waiting/neverFits/0").asText())
                .isEqualTo("each worker pod asks for 16 nvidia.com/gpu, the largest node has 4");
        // The Job's Created and its group's FailedScheduling come within a moment of each other, in either order.
        assertThat(giant.path("events").valueStream().map(event -> event.path("reason").asText()))
                .contains("Created", "FailedScheduling");

        JsonNode queues = json.readTree(muster.run("queues", "-o", "json").out());
        assertThat(queues.path("items").valueStream().map(item -> item.at("/metadata/name").asText()))
                .containsExactly("archive", "default", "org", "research");
        assertThat(queues.at("/items/3/status/fairShare/nvidia.com~1gpu").asText()).isEqualTo("9");
        JsonNode research = json.readTree(muster.run("describe", "queue", "research", "-o", "json").out());
        assertThat(research.at("/jobs/0/metadata/name").asText()).isEqualTo("train");
        assertThat(muster.run("describe", "queue", "nope")).isEqualTo(new Result(1, "", "error: queue nope not found\n"));
        assertThat(muster.run("queues", "-n", "x").err()).startsWith("queues are cluster-scoped: -n/--namespace does not apply\n");

        assertThat(muster.run("pg", "-o", "yaml").out()).startsWith("---\napiVersion: \"v1\"\nkind: \"List\"\nitems:\n")
                .contains("kind: \"PodGroup\"");
    }

    @Test
    void aMissingJobExitsOneNamingIt() {
        assertThat(muster.run("describe", "job", "nope")).isEqualTo(new Result(1, "", "error: job default/nope not found\n"));
        assertThat(muster.run("describe", "job", "nope", "-n", "team-b"))
                .isEqualTo(new Result(1, "", "error: job team-b/nope not found\n"));
    }

    /**
     * With no kubeconfig anywhere, the client would try {@code kubernetes.default.svc} (in-cluster) and fail
     * with {@code UnknownHostException}; the command says how to point it at a cluster instead, and names the
     * kubeconfig of the running local cluster. Like kubectl, it does not switch clusters by itself.
     */
    @Test
    void withNoKubeconfigTheCommandSaysHowToPointItAtTheRunningLocalCluster() throws Exception {
        Path shellDir = Files.createDirectories(dir.resolve("shell"));
        Path home = Files.createDirectories(dir.resolve("home"));
        ClusterSources bare = new ClusterSources(name -> null, home, shellDir);

        Result withoutLocal = muster.runIn(bare, "jobs");
        assertThat(withoutLocal.exit()).isEqualTo(1);
        assertThat(withoutLocal.out()).isEmpty();
        assertThat(withoutLocal.err()).isEqualTo("error: no cluster to talk to: no --kubeconfig was given, $KUBECONFIG "
                + "is not set and " + home.resolve(".kube/config") + " does not exist, and this is not a pod in a cluster.\n"
                + "Point muster at a cluster as you would kubectl: --kubeconfig FILE, or export KUBECONFIG=FILE.\n"
                + "For a cluster on this machine, run ./muster local in another terminal: it writes .muster/local/kubeconfig "
                + "under the directory it runs in.\n");

        Path local = cluster.writeKubeconfig(shellDir.resolve(".muster/local/kubeconfig")).toAbsolutePath();
        Result withLocal = muster.runIn(bare, "jobs");
        assertThat(withLocal.exit()).isEqualTo(1);
        assertThat(withLocal.err()).endsWith("\nThe local cluster of ./muster local wrote " + local
                + "; it is running: add --kubeconfig " + local + "\n");
        assertThat(muster.runIn(bare, "jobs", "--kubeconfig", local.toString()))
                .as("the flag it names works").isEqualTo(muster.run("jobs"));

        Result missingFile = muster.runIn(new ClusterSources(Map.of("KUBECONFIG", "/nowhere/config")::get, home,
                shellDir), "pg");
        assertThat(missingFile.err()).startsWith("error: no cluster to talk to: no --kubeconfig was given, "
                + "$KUBECONFIG (/nowhere/config) names no file that exists, and this is not a pod in a cluster.\n");
    }

    @Test
    void usageErrorsExitTwo() {
        Result pod = muster.run("describe", "pod", "x");
        assertThat(pod.exit()).isEqualTo(2);
        assertThat(pod.err()).startsWith("unknown kind 'pod'; describe acts on a job or a queue, e.g. muster describe job NAME\n");
        Result managerUrlForAQueue = muster.run("describe", "queue", "research", "--manager-url", managerUrl);
        assertThat(managerUrlForAQueue.exit()).isEqualTo(2);
        assertThat(managerUrlForAQueue.err()).startsWith("--manager-url applies to describe job only\n");
        assertThat(muster.run("jobs", "-o", "xml").exit()).isEqualTo(2);
        assertThat(muster.run("frobnicate").exit()).isEqualTo(2);
    }

    /**
     * The whole output of a describe as expected, but for the order of events in the same second: the Job
     * controller, the PodGroup controller and the scheduler record theirs concurrently.
     */
    private static void assertDescribe(Result actual, String expected) {
        assertThat(actual.exit()).as(actual.err()).isZero();
        assertThat(eventsSorted(reclaimTimeHidden(actual.out()))).isEqualTo(eventsSorted(expected));
    }

    /** The reclaim note's end of the delay, which depends on when the gang began to wait, as {@code <time>}. */
    private static String reclaimTimeHidden(String out) {
        return out.replaceAll("reclaimDelay of 3600s, at \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\.",
                "reclaimDelay of 3600s, at <time>.");
    }

    private static String eventsSorted(String out) {
        List<String> lines = new ArrayList<>(out.lines().toList());
        int first = lines.indexOf("Events:") + 2;
        int end = first;
        while (end < lines.size() && lines.get(end).startsWith("  ")) {
            end++;
        }
        Collections.sort(lines.subList(first, end));
        return String.join("\n", lines) + "\n";
    }

    private static Result ok(String out) {
        return new Result(0, out, "");
    }

    private static JobPhase phase(String name) {
        Job job = cluster.client().resources(Job.class).withName(name).get();
        return job == null || job.getStatus() == null || job.getStatus().getState() == null ? null
                : job.getStatus().getState().getPhase();
    }

    private static int pendingGangs(String queue) {
        Queue q = cluster.client().resources(Queue.class).withName(queue).get();
        return q == null || q.getStatus() == null || q.getStatus().getPending() == null ? -1 : q.getStatus().getPending();
    }

    private static String reason(String namespace, String name) {
        Job job = cluster.client().resources(Job.class).inNamespace(namespace).withName(name).get();
        return job == null || job.getStatus() == null || job.getStatus().getState() == null
                || job.getStatus().getState().getReason() == null ? "" : job.getStatus().getState().getReason();
    }

    /** Until the PodGroup of the job says why it cannot be placed. */
    private static void awaitQueued(String name) {
        await().atMost(PATIENCE).until(() -> muster.run("describe", "job", name).out().contains("Unschedulable"));
    }

    /**
     * A Job of {@code workers} pods with {@code gpus} GPUs each, with a master pod without GPUs when
     * {@code master}; its pods run for an hour once started, longer than any test.
     */
    private static String job(String name, String queue, String priorityClass, int workers, int gpus, boolean master) {
        return "apiVersion: batch.muster.dev/v1alpha1\nkind: Job\nmetadata: {name: " + name + "}\nspec:\n"
                + (queue == null ? "" : "  queue: " + queue + "\n")
                + (priorityClass == null ? "" : "  priorityClassName: " + priorityClass + "\n")
                + "  tasks:\n"
                + (master ? task("master", 1, "1", "2Gi", "", "") : "")
                + task("worker", workers, "2", "8Gi", ", nvidia.com/gpu: \"" + gpus + "\"",
                        ", limits: {nvidia.com/gpu: \"" + gpus + "\"}");
    }

    /** A task whose pods request the cpu and memory, then {@code more}, and have {@code limits} (an extended resource needs one). */
    private static String task(String name, int replicas, String cpu, String memory, String more, String limits) {
        return "  - {name: " + name + ", replicas: " + replicas + ", template: {metadata: {annotations: "
                + "{local.muster.dev/run-seconds: \"3600\"}}, spec: {restartPolicy: Never, containers: "
                + "[{name: main, image: pytorch/pytorch, resources: {requests: {cpu: \"" + cpu + "\", memory: "
                + memory + more + "}" + limits + "}}]}}}\n";
    }
}
