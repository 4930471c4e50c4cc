package dev.muster.cli;

import dev.muster.api.scheduling.v1alpha1.QueueDefaults;
import dev.muster.api.PodPhase;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.JobState;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.batch.v1alpha1.TaskState;
import dev.muster.api.scheduling.v1alpha1.Queue;
import picocli.CommandLine.Command;

import java.util.List;
import java.util.stream.Collectors;

/** {@code muster jobs}: Muster Jobs with their queue, phase and running pods per task. */
@Command(name = "jobs", description = "Lists Muster Jobs.")
final class JobsCommand extends ListCommand<Job> {
    /** A cell with no value, as kubectl writes it. */
    static final String NONE = "<none>";

    JobsCommand() {
        super(Job.class, List.of("NAME", "QUEUE", "PHASE", "REASON", "TASKS", "AGE"));
    }

    @Override
    List<String> cells(Job job) {
        return List.of(job.getMetadata().getName(), queue(job), phase(job),
                state(job) == null || state(job).getReason() == null ? NONE : state(job).getReason(),
                tasks(job), Ages.since(job.getMetadata().getCreationTimestamp(), cli.clock.instant()));
    }

    /** The Job's queue, {@value Queue#DEFAULT} when it names none. */
    static String queue(Job job) {
        return QueueDefaults.queueOf(job.getSpec().getQueue());
    }

    /** The Job's phase, {@value #NONE} before the Job controller has given it one. */
    static String phase(Job job) {
        return state(job) == null || state(job).getPhase() == null ? NONE : state(job).getPhase().name();
    }

    /** The Job's state, null before the Job controller has written one. */
    static JobState state(Job job) {
        return job.getStatus() == null ? null : job.getStatus().getState();
    }

    /** Running pods of replicas per task in spec order, e.g. {@code master 1/1, worker 2/4}. */
    static String tasks(Job job) {
        return JobDefaults.tasksOf(job.getSpec()).stream()
                .map(task -> task.getName() + " " + taskCount(job, task, PodPhase.Running) + "/" + JobDefaults.replicas(task))
                .collect(Collectors.joining(", "));
    }

    /** The task's pods in {@code podPhase} as the Job's status counts them; 0 when not counted. */
    static int taskCount(Job job, TaskSpec task, PodPhase podPhase) {
        if (job.getStatus() == null || job.getStatus().getTaskStatusCount() == null) {
            return 0;
        }
        TaskState state = job.getStatus().getTaskStatusCount().get(task.getName());
        return state == null || state.getPhase() == null ? 0 : state.getPhase().getOrDefault(podPhase.name(), 0);
    }
}
