package dev.muster.podgroup;

import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;

/**
 * What {@link PodGroupStatusCalculator} decided for one group.
 *
 * @param previousPhase the phase in the status before; Pending for a group whose status was never written
 * @param event         how the observation was classified
 * @param status        the desired status
 */
public record StatusDecision(PodGroupPhase previousPhase, GangEvent event, PodGroupStatus status) {

    /** Whether the decision moves the phase, which is worth a log line and an Event. */
    public boolean phaseChanged() {
        return previousPhase != status.getPhase();
    }

    /**
     * Whether the group stays Running below its quorum while members that left may still be replaced:
     * the replacement grace period runs, and the group is Unknown if it ends with nothing changed.
     */
    public boolean awaitsReplacement() {
        return event == GangEvent.GANG_INCOMPLETE && status.getPhase() == PodGroupPhase.Running;
    }
}
