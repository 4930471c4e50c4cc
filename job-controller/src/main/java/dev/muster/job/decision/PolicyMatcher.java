package dev.muster.job.decision;

import dev.muster.job.lifecycle.JobAction;
import dev.muster.job.lifecycle.Trigger;
import dev.muster.job.lifecycle.Verdict;
import dev.muster.api.batch.v1alpha1.GoDuration;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPolicies;
import dev.muster.api.batch.v1alpha1.LifecyclePolicy;
import dev.muster.api.batch.v1alpha1.TaskSpec;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Matches policy events ({@link PolicyEvent}) against a job's lifecycle policies; a pure function. For each event, the
 * task's own policies are tried before the job's, each list in order, and the first policy that matches
 * decides. A policy with a timeout fires only once the event has lasted that long, and not at all if a
 * later event (the pod ran after all, it was replaced) makes it go away first; since the world is
 * re-observed on every reconcile, cancelling needs no bookkeeping. The first event whose policy fires
 * gives the action.
 */
final class PolicyMatcher {
    private PolicyMatcher() {
    }

    static PolicyOutcome match(Job job, List<PolicyEvent> events, Instant now) {
        Optional<Instant> wakeAt = Optional.empty();
        Optional<Verdict> crashLoop = Optional.empty();
        for (PolicyEvent event : events) {
            Optional<LifecyclePolicy> policy = policyFor(job, event);
            if (policy.isEmpty()) {
                if (crashLoop.isEmpty() && event.pod().isPresent() && event.event().filter(JobPolicies.TASK_FAILED::equals).isPresent()) {
                    crashLoop = Optional.of(new Verdict(JobPolicies.TASK_FAILED, event.message()));
                }
                continue;
            }
            Instant due = event.since().plus(timeout(policy.get()));
            if (!now.isBefore(due)) {
                JobAction action = JobAction.valueOf(policy.get().getAction());
                String reason = event.event().orElse(JobPolicies.POD_FAILED);
                return new PolicyOutcome(Optional.of(new Trigger(action, new Verdict(reason, event.message()),
                        event.task(), event.pod())), Optional.empty(), wakeAt);
            }
            wakeAt = wakeAt.filter(w -> w.isBefore(due)).or(() -> Optional.of(due));
        }
        return new PolicyOutcome(Optional.empty(), crashLoop, wakeAt);
    }

    private static Optional<LifecyclePolicy> policyFor(Job job, PolicyEvent event) {
        List<LifecyclePolicy> candidates = new ArrayList<>();
        event.task().flatMap(name -> job.getSpec().getTasks().stream().filter(t -> name.equals(t.getName())).findFirst())
                .map(TaskSpec::getPolicies).ifPresent(candidates::addAll);
        if (job.getSpec().getPolicies() != null) {
            candidates.addAll(job.getSpec().getPolicies());
        }
        return candidates.stream().filter(p -> matches(p, event)).findFirst();
    }

    private static boolean matches(LifecyclePolicy policy, PolicyEvent event) {
        if (policy.getExitCode() != null) {
            return event.exitCodes().contains(policy.getExitCode());
        }
        if (event.event().isEmpty()) {
            return false;
        }
        List<String> names = JobPolicies.eventsOf(policy);
        String name = event.event().get();
        return names.contains(name) || (names.contains(JobPolicies.ANY_EVENT) && !JobPolicies.POD_PENDING.equals(name));
    }

    private static Duration timeout(LifecyclePolicy policy) {
        return policy.getTimeout() == null ? Duration.ZERO : GoDuration.parse(policy.getTimeout());
    }
}
