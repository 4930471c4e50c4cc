package dev.muster.job;

import dev.muster.job.decision.NetworkTopologyTiers;
import dev.muster.api.KubeTime;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.JobSpec;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.support.event.EventRecorder;
import dev.muster.support.status.StatusRecorder;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Says on a Job which of the fields it sets Muster accepts without honouring them, in the spirit of the
 * scheduler's "Not evaluated by the scheduler (placed as if absent)" for pod fields: a {@value #TYPE}
 * condition in {@code status.controllerConditions}, naming each field and why, and a Warning Event
 * {@value #REASON} when that message first appears or changes. Pure functions of the job and its status.
 */
final class FieldsNotHonoured {
    /** Condition type on a Job that sets fields Muster does not honour. */
    static final String TYPE = "FieldsNotHonoured";
    /** Reason of that condition and of its Event. */
    static final String REASON = "FieldNotHonoured";

    private FieldsNotHonoured() {
    }

    /** Each field the spec sets and Muster does not honour, as {@code path: why}; empty when there is none. */
    static List<String> of(JobSpec spec, NetworkTopologyTiers tiers) {
        List<String> notes = new ArrayList<>();
        if (spec == null) {
            return notes;
        }
        tiers.map(spec.getNetworkTopology()).notHonoured().ifPresent(why -> notes.add("spec.networkTopology: " + why
                + "; the gang is placed as if networkTopology were absent"));
        List<TaskSpec> tasks = JobDefaults.tasksOf(spec);
        for (int i = 0; i < tasks.size(); i++) {
            TaskSpec task = tasks.get(i);
            if (task == null) {
                continue;
            }
            String path = "spec.tasks[" + i + "]";
            if (task.getPartitionPolicy() != null) {
                tiers.map(task.getPartitionPolicy().getNetworkTopology()).notHonoured().ifPresent(why -> notes.add(
                        path + ".partitionPolicy.networkTopology: " + why + "; each partition is placed whole, in "
                                + "no particular domain"));
            }
            if (task.getTopologyPolicy() != null) {
                notes.add(path + ".topologyPolicy: NUMA alignment is not evaluated; the task's pods are placed as if "
                        + "it were absent");
            }
        }
        return notes;
    }

    /**
     * Puts the condition on {@code next} (the status about to be written; {@code current} is the job's as read)
     * and returns the Event to record with it, if its message is new. The condition keeps its transition time
     * while its message stays the same, so an unchanged job writes nothing.
     */
    static Optional<StatusRecorder.Event> apply(Job job, JobStatus next, NetworkTopologyTiers tiers, Instant now) {
        List<String> notes = of(job.getSpec(), tiers);
        if (notes.isEmpty()) {
            next.setControllerConditions(null);
            return Optional.empty();
        }
        String message = EventRecorder.truncate("Not honoured (accepted, and treated as absent): " + String.join("; ", notes));
        Optional<Condition> before = current(job.getStatus());
        boolean same = before.filter(c -> message.equals(c.getMessage())).isPresent();
        String since = same ? before.get().getLastTransitionTime()
                : KubeTime.format(now);
        next.setControllerConditions(List.of(new ConditionBuilder().withType(TYPE).withStatus("True").withReason(REASON)
                .withMessage(message).withObservedGeneration(job.getMetadata().getGeneration())
                .withLastTransitionTime(since).build()));
        return same ? Optional.empty() : Optional.of(new StatusRecorder.Event(EventRecorder.WARNING, REASON, message));
    }

    private static Optional<Condition> current(JobStatus status) {
        if (status == null || status.getControllerConditions() == null) {
            return Optional.empty();
        }
        return status.getControllerConditions().stream().filter(c -> TYPE.equals(c.getType())).findFirst();
    }
}
