package dev.muster.podgroup;

import dev.muster.api.KubeTime;
import dev.muster.api.scheduling.v1alpha1.PodGroupDefaults;
import dev.muster.api.scheduling.v1alpha1.PodGroupCondition;
import dev.muster.api.scheduling.v1alpha1.PodGroupPhase;
import dev.muster.api.scheduling.v1alpha1.PodGroupSpec;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import dev.muster.gang.GangVerdict;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Computes a PodGroup's desired status from what is observed: its pods, the scheduler's latest verdict,
 * the current status and whether a running gang has waited too long for members to be replaced. Its
 * result depends on nothing else and it does no I/O, so any number of controller workers may call it
 * at once.
 */
public final class PodGroupStatusCalculator {
    private final PodGroupPhaseMachine phases = new PodGroupPhaseMachine();

    /**
     * Decides the status the group should have.
     *
     * @param current            the status now, null for a group never written
     * @param spec               the group's spec
     * @param pods               the group's pods
     * @param verdict            the scheduler's latest verdict on the group, if it has decided on it
     * @param replacementOverdue whether the group has been waiting for members to be replaced (see
     *                           {@link StatusDecision#awaitsReplacement()}) for longer than the grace period
     * @param now                the time of the decision, stamped on what changes
     */
    public StatusDecision decide(PodGroupStatus current, PodGroupSpec spec, PodCensus pods,
                                 Optional<GangVerdict> verdict, boolean replacementOverdue, Instant now) {
        int minMember = PodGroupDefaults.minMember(spec);
        PodGroupPhase from = current == null || current.getPhase() == null ? PodGroupPhase.Pending : current.getPhase();
        GangEvent event = GangEvent.observe(pods, minMember, verdict);
        if (event == GangEvent.GANG_INCOMPLETE && from == PodGroupPhase.Running && replacementOverdue) {
            event = GangEvent.MEMBERS_NOT_REPLACED;
        }
        if (event == GangEvent.GANG_UNPLACEABLE && from == PodGroupPhase.Running
                && onlyAdditionsWait(current, pods, minMember)) {
            event = GangEvent.GANG_GROWING;
        }
        PodGroupPhase to = phases.next(from, event);
        String timestamp = KubeTime.format(now);
        List<PodGroupCondition> conditions = current == null || current.getConditions() == null
                ? List.of() : current.getConditions();

        var status = new PodGroupStatus();
        status.setPhase(to);
        status.setConditions(GangConditions.desired(conditions, verdict, from, to, event, pods, minMember, timestamp));
        status.setRunning(pods.running());
        status.setSucceeded(pods.succeeded());
        status.setFailed(pods.failed());
        status.setScheduleStartTime(scheduleStartTime(current, verdict, timestamp));
        status.setRunningQuorum(runningQuorum(current, to, event, minMember));
        return new StatusDecision(from, event, status);
    }

    /**
     * Whether a running group is short only because it grew: minMember rose above the quorum it last met
     * while Running, that quorum still runs, and nothing failed or was lost, so the pods that wait are
     * additions, not replacements.
     */
    private static boolean onlyAdditionsWait(PodGroupStatus current, PodCensus pods, int minMember) {
        Integer met = current == null ? null : current.getRunningQuorum();
        return met != null && met < minMember && pods.runningOrSucceeded() >= met
                && pods.failed() == 0 && pods.lost() == 0;
    }

    /** The quorum the group meets while Running: this minMember once it runs, else the one it met before. */
    private static Integer runningQuorum(PodGroupStatus current, PodGroupPhase to, GangEvent event, int minMember) {
        if (to == PodGroupPhase.Running && event == GangEvent.QUORUM_RUNNING) {
            return minMember;
        }
        return to == PodGroupPhase.Running && current != null ? current.getRunningQuorum() : null;
    }


    private static String scheduleStartTime(PodGroupStatus current, Optional<GangVerdict> verdict, String now) {
        if (current != null && current.getScheduleStartTime() != null) {
            return current.getScheduleStartTime();
        }
        return verdict.map(v -> v.decidedAt() == null ? now : KubeTime.format(v.decidedAt())).orElse(null);
    }
}
