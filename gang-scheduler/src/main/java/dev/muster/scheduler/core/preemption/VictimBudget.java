package dev.muster.scheduler.core.preemption;

import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.model.RunningGang;

import java.util.List;
import java.util.Map;

/**
 * What a {@link VictimSearch} may take from running gangs: the queue rules (reclaim only from queues
 * above their fair share and only up to the preemptor's, never below a queue's guarantee, preemption
 * within a queue by priority) as a question about one victim unit at a time.
 *
 * <p>The search first offers every unit in preference order, each after the units allowed before it,
 * and weighs only units allowed there. It then asks again about every unit of each candidate set it
 * weighs, in that set's preference order, telling what the units before it take; a set is weighed only
 * if every unit is allowed. The answers must be a function of the arguments alone (the same question
 * gets the same answer within a search), and should be monotone: pods allowed after some were taken are
 * allowed after less was taken. Otherwise the search stays correct (every set it returns was allowed
 * unit by unit) but may miss a smaller set.
 */
@FunctionalInterface
public interface VictimBudget {

    /** Allows every unit: the candidates alone limit the search. */
    VictimBudget UNLIMITED = (victim, pods, takenByQueue) -> true;

    /**
     * Whether these pods may be taken from the victim gang.
     *
     * @param victim       the running gang the pods belong to
     * @param pods         the pods about to be taken: one surplus member, or every member still running
     *                     when the gang is taken whole
     * @param takenByQueue what the units before this one in the same set take, as the sum of their
     *                     pods' requests per victim queue ({@link GangInfo#queue()}); a queue nothing is
     *                     taken from is absent; unmodifiable. What earlier preemptions of the cycle took
     *                     is not in it: the budget adds it if its rules count it
     * @return whether the search may take them
     */
    boolean allows(RunningGang victim, List<PodInfo> pods, Map<String, ResourceVector> takenByQueue);
}
