package dev.muster.scheduler.core.cycle;

import dev.muster.scheduler.core.placement.GangPlacement;
import dev.muster.scheduler.core.preemption.Eviction;
import dev.muster.scheduler.core.preemption.ReclaimOutlook;
import dev.muster.scheduler.core.queue.QueueHold;
import dev.muster.scheduler.core.queue.QueueStanding;

import java.util.List;
import java.util.Objects;

/**
 * What one scheduling cycle under queues decided ({@link QueuePlanner#plan}): what to bind, what to
 * evict, which gangs the queues' rules hold back, and where every queue stands.
 *
 * @param placements one result per gang that was tried or backed off, as {@code GangQueue} returns
 *                   them: {@link GangPlacement.Outcome#PLACED} ones are to be bound, the others say why
 *                   the gang waits
 * @param evictions  pods to evict now, each for a named preemptor under a named rule; the room they free
 *                   is promised to their preemptor (see {@link QueueHold.Reason#PREEMPTING})
 * @param holds      gangs not tried because of their queue (it does not exist, is closed, or a limit
 *                   would be exceeded) or because they wait for their victims to terminate; a gang is
 *                   in either {@code placements} or {@code holds}, never in both
 * @param standings  one per queue of the tree, parents before their children, for the Queue status and
 *                   metrics
 * @param reclaims   where reclaim stands for each gang that waits for room while gangs of other queues
 *                   run: waiting out its queue's {@code reclaimDelay}, reclaiming, or why it cannot; its
 *                   {@linkplain ReclaimOutlook#message() text} already ends the gang's placement message
 *                   (or, when reclaiming, is its hold's message)
 */
public record CyclePlan(List<GangPlacement> placements, List<Eviction> evictions, List<QueueHold> holds,
                        List<QueueStanding> standings, List<ReclaimOutlook> reclaims) {

    public CyclePlan {
        placements = List.copyOf(Objects.requireNonNull(placements, "placements"));
        evictions = List.copyOf(Objects.requireNonNull(evictions, "evictions"));
        holds = List.copyOf(Objects.requireNonNull(holds, "holds"));
        standings = List.copyOf(Objects.requireNonNull(standings, "standings"));
        reclaims = List.copyOf(Objects.requireNonNull(reclaims, "reclaims"));
    }
}
