package dev.muster.job.bench;

import dev.muster.job.decision.JobDecision;
import dev.muster.job.decision.JobStatusDecider;
import dev.muster.job.lifecycle.JobLifecycle;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobSpec;
import dev.muster.api.batch.v1alpha1.LifecyclePolicy;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.rendering.JobPodRenderer;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The cost of deciding one Job event: {@link JobStatusDecider#decide} for a running 1 master + 16 worker
 * job with job- and task-level policies, when the event changes nothing (the common case: a pod's status
 * moved on) and when it makes a policy restart the job (the state machine changes phase). The budget is
 * 50 µs per event at steady state. Run with {@code job-controller/bench.sh}; no build runs it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class JobDecisionBenchmark {
    private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");
    private static final int WORKERS = 16;

    private final JobStatusDecider decider = new JobStatusDecider(new JobLifecycle());
    private Job job;
    private List<Pod> running;
    private List<Pod> oneFailed;

    @Setup
    public void setUp() {
        job = job();
        running = pods(job, null);
        oneFailed = pods(job, "train-worker-7");
        job.setStatus(decider.decide(job, List.of(), Optional.empty(), Set.of(), NOW).status());
        job.setStatus(decider.decide(job, running, Optional.empty(), Set.of(), NOW).status());
        if (!"Running".equals(job.getStatus().getState().getPhase().name())) {
            throw new IllegalStateException("the job should be running, is " + job.getStatus().getState().getPhase());
        }
    }

    /** A pod's status changed but the job stays in its phase: no transition, nothing to delete or create. */
    @Benchmark
    public JobDecision stayInPhase() {
        return decider.decide(job, running, Optional.empty(), Set.of(), NOW);
    }

    /** A worker failed and the task's policy restarts the job: Running -> Restarting. */
    @Benchmark
    public JobDecision restartJob() {
        return decider.decide(job, oneFailed, Optional.empty(), Set.of(), NOW);
    }

    private static Job job() {
        Job job = new Job();
        job.setMetadata(new ObjectMetaBuilder().withName("train").withNamespace("default").withUid("uid-train")
                .withGeneration(1L).withCreationTimestamp(NOW.toString()).build());
        JobSpec spec = new JobSpec();
        spec.setTasks(new ArrayList<>(List.of(task("master", 1), task("worker", WORKERS))));
        spec.setPolicies(List.of(policy("PodEvicted", null, "RestartJob"), policy(null, 137, "RestartTask")));
        spec.getTasks().get(1).setPolicies(List.of(policy("PodFailed", null, "RestartJob")));
        job.setSpec(spec);
        return job;
    }

    private static TaskSpec task(String name, int replicas) {
        TaskSpec task = new TaskSpec();
        task.setName(name);
        task.setReplicas(replicas);
        task.setTemplate(new PodTemplateSpecBuilder().withNewMetadata().endMetadata().withNewSpec()
                .addNewContainer().withName("main").withImage("pytorch/pytorch:2.4.0").withCommand("torchrun", "train.py")
                .endContainer().withRestartPolicy("Never").endSpec().build());
        return task;
    }

    private static LifecyclePolicy policy(String event, Integer exitCode, String action) {
        LifecyclePolicy policy = new LifecyclePolicy();
        policy.setEvent(event);
        policy.setExitCode(exitCode);
        policy.setAction(action);
        return policy;
    }

    private static List<Pod> pods(Job job, String failed) {
        List<Pod> pods = JobPodRenderer.pods(job, 0);
        for (Pod pod : pods) {
            boolean fails = pod.getMetadata().getName().equals(failed);
            pod.getMetadata().setUid("uid-" + pod.getMetadata().getName());
            pod.getMetadata().setCreationTimestamp(NOW.toString());
            pod.setStatus(new PodStatusBuilder().withPhase(fails ? "Failed" : "Running")
                    .addToContainerStatuses(new ContainerStatusBuilder().withName("main").withRestartCount(0)
                            .withNewState().withNewTerminated().withExitCode(fails ? 1 : 0)
                            .withFinishedAt(NOW.toString()).endTerminated().endState().build())
                    .build());
            if (!fails) {
                pod.getStatus().getContainerStatuses().get(0).getState().setTerminated(null);
            }
        }
        return pods;
    }
}
