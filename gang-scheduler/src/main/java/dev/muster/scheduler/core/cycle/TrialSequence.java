package dev.muster.scheduler.core.cycle;

import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.placement.GangPlacement;
import dev.muster.scheduler.core.placement.GangTrial;
import dev.muster.scheduler.core.queue.GangOrder;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * In what order one cycle of {@link GangQueue} tries the gangs that neither are admitted nor hold the
 * reservation, and which of them it tries at all. The order may depend on what the cycle placed so far,
 * so the sequence hears of every result, those of admitted gangs and the reservation holder included.
 */
interface TrialSequence {
    /** Starts a cycle with the gangs to order, and the trial runner that will try them. */
    void start(List<PendingGang> gangs, GangTrial trial);

    /** The next gang to try, or {@code null} when none is left. */
    PendingGang next();

    /** Hears of a trial's result; returns the result to record (the same, or in the gang's own pods). */
    GangPlacement tried(GangPlacement result);

    /** Today's single queue: {@link GangOrder#QUEUE}, every gang tried. */
    static TrialSequence byGangOrder() {
        return new TrialSequence() {
            private Iterator<PendingGang> order;

            @Override
            public void start(List<PendingGang> gangs, GangTrial trial) {
                List<PendingGang> sorted = new ArrayList<>(gangs);
                sorted.sort(GangOrder.QUEUE);
                order = sorted.iterator();
            }

            @Override
            public PendingGang next() {
                return order.hasNext() ? order.next() : null;
            }

            @Override
            public GangPlacement tried(GangPlacement result) {
                return result;
            }
        };
    }
}
