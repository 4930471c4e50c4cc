package dev.muster.job.decision;

import dev.muster.job.lifecycle.Trigger;
import dev.muster.job.lifecycle.Verdict;
import java.time.Instant;
import java.util.Optional;

/**
 * What the job's policies make of its events.
 *
 * @param trigger   the action to take now, if a policy matched and its timeout (if any) has passed
 * @param crashLoop a pod restarted in place more often than its task allows and no policy handles it:
 *                  the job fails
 * @param wakeAt    the earliest time a policy's timeout runs out, so the job is looked at again then
 */
record PolicyOutcome(Optional<Trigger> trigger, Optional<Verdict> crashLoop, Optional<Instant> wakeAt) {
    static final PolicyOutcome NOTHING = new PolicyOutcome(Optional.empty(), Optional.empty(), Optional.empty());
}
