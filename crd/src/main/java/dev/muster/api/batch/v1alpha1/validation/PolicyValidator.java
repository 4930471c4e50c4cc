package dev.muster.api.batch.v1alpha1.validation;

import dev.muster.api.batch.v1alpha1.GoDuration;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.JobPolicies;
import dev.muster.api.batch.v1alpha1.LifecyclePolicy;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks one list of lifecycle policies (the job's, or one task's): each policy names events or an exit
 * code, not both; events, actions and timeouts are known; no event or exit code is handled twice; and
 * {@code *} stands alone, since with it any other event would be ambiguous.
 */
final class PolicyValidator {
    private PolicyValidator() {
    }

    static void validate(List<LifecyclePolicy> policies, String path, List<FieldError> errors) {
        if (policies == null) {
            return;
        }
        if (policies.size() > JobDefaults.MAX_POLICIES) {
            errors.add(new FieldError(path, "must list at most " + JobDefaults.MAX_POLICIES + " policies, has " + policies.size()));
        }
        Set<String> events = new HashSet<>();
        Set<Integer> exitCodes = new HashSet<>();
        boolean any = false;
        for (int i = 0; i < policies.size(); i++) {
            LifecyclePolicy policy = policies.get(i);
            String at = path + "[" + i + "]";
            if (policy == null) {
                errors.add(new FieldError(at, "must not be null"));
                continue;
            }
            List<String> named = JobPolicies.eventsOf(policy);
            if (!named.isEmpty() && policy.getExitCode() != null) {
                errors.add(new FieldError(at, "set either event/events or exitCode, not both"));
            } else if (named.isEmpty() && policy.getExitCode() == null) {
                errors.add(new FieldError(at, "set event/events or exitCode"));
            }
            for (String event : named) {
                if (!JobPolicies.EVENTS.contains(event)) {
                    errors.add(new FieldError(at + ".event", "unknown event '" + event + "'; one of "
                            + String.join(", ", JobPolicies.EVENTS)));
                } else if (!events.add(event)) {
                    errors.add(new FieldError(at + ".event", "event '" + event + "' is handled more than once"));
                }
                any |= JobPolicies.ANY_EVENT.equals(event);
            }
            if (policy.getExitCode() != null) {
                if (policy.getExitCode() == 0) {
                    errors.add(new FieldError(at + ".exitCode", "must not be 0, which means success"));
                } else if (!exitCodes.add(policy.getExitCode())) {
                    errors.add(new FieldError(at + ".exitCode", "exit code " + policy.getExitCode() + " is handled more than once"));
                }
            }
            if (policy.getAction() == null) {
                errors.add(new FieldError(at + ".action", "is required"));
            } else if (JobPolicies.RESUME_JOB.equals(policy.getAction())) {
                errors.add(new FieldError(at + ".action", JobPolicies.RESUME_JOB_MESSAGE));
            } else if (!JobPolicies.ACTIONS.contains(policy.getAction())) {
                errors.add(new FieldError(at + ".action", "unknown action '" + policy.getAction() + "'; one of "
                        + String.join(", ", JobPolicies.ACTIONS)));
            }
            if (policy.getTimeout() != null) {
                try {
                    GoDuration.parse(policy.getTimeout());
                } catch (IllegalArgumentException e) {
                    errors.add(new FieldError(at + ".timeout", e.getMessage()));
                }
            }
        }
        if (any && events.size() > 1) {
            errors.add(new FieldError(path, "'*' cannot be combined with other events"));
        }
    }
}
