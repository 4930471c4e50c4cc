package dev.muster.scheduler.core.preemption;

import dev.muster.api.KubeTime;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.ResourceVector;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Where reclaim stands for a gang that waits for room while gangs of other queues run, so that "why is my
 * job pending" covers it: the gang waits out its queue's {@code reclaimDelay}, or is reclaiming (gangs of
 * other queues are being evicted for it), or reclaim cannot help it, by which rule. Plain data from the
 * planner ({@code CyclePlan.reclaims()}); {@link #message()} is the one place its text is made, and the
 * planner adds that text to the gang's message, which reaches its PodGroup's condition, its Job's status,
 * its pending pods and the scheduler's queue view.
 *
 * @param gang     the waiting gang
 * @param queue    its leaf queue
 * @param state    where reclaim stands
 * @param until    for {@link State#WAITING}: when the gang will have waited its queue's reclaim delay
 * @param delay    for {@link State#WAITING}: the queue's {@code reclaimDelay}
 * @param victims  for {@link State#RECLAIMING}: the gangs evicted for it, and their queues
 * @param refusal  for {@link State#BLOCKED}: the rule that stops reclaim, and its figures
 */
public record ReclaimOutlook(GroupKey gang, String queue, State state, Instant until, Duration delay,
                             List<Victim> victims, Refusal refusal) {

    public ReclaimOutlook {
        Objects.requireNonNull(gang, "gang");
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(state, "state");
        victims = victims == null ? List.of() : List.copyOf(victims);
    }

    /** Where reclaim stands. */
    public enum State {
        /** The gang has not yet waited its queue's {@code reclaimDelay}. */
        WAITING,
        /** Gangs of other queues are being evicted for it. */
        RECLAIMING,
        /** Reclaim cannot help it now; {@link #refusal()} says why. */
        BLOCKED
    }

    /** The rule that stops a reclaim (see {@code docs/queues.md}, "Reclaim across queues"). */
    public enum Rule {
        /** The waiting gang's queue has {@code reclaim: false}. */
        RECLAIM_DISABLED,
        /** The waiting queue (or its side) would hold more than its fair share: a queue never evicts to borrow. */
        FAIR_SHARE_REACHED,
        /** No other queue holds more than its fair share of what the gang is short of. */
        NOTHING_ABOVE_FAIR_SHARE,
        /** The victim's side would fall below its fair share. */
        VICTIM_FAIR_SHARE,
        /** The victim's queue, or its side, would fall below its guarantee. */
        GUARANTEE,
        /** The waiting side's share would be above the victim side's: a reclaim never turns the tables. */
        TABLES,
        /** No set of victims the rules allow makes room for the gang node by node. */
        NO_VICTIM_SET_FITS,
        /** The gang asks for a resource no schedulable node has. */
        NOT_IN_CLUSTER
    }

    /**
     * A gang evicted for the waiting one.
     *
     * @param gang  the victim gang
     * @param queue its queue
     */
    public record Victim(GroupKey gang, String queue) {
    }

    /**
     * Why reclaim cannot help, with the figures the rule compares.
     *
     * @param rule     the rule
     * @param queue    the queue the rule is about (the waiting one, or a victim's); {@code null} when none
     * @param resource the resource compared; {@code null} for the share comparison and rules without one
     * @param amount   what the queue would hold (for {@link Rule#TABLES}: the waiting side's share)
     * @param bound    its fair share or guarantee (for {@link Rule#TABLES}: the victim side's share)
     * @param other    for {@link Rule#TABLES}: the victim side; else {@code null}
     */
    public record Refusal(Rule rule, String queue, String resource, double amount, double bound, String other) {
        public Refusal {
            Objects.requireNonNull(rule, "rule");
        }

        /** A rule without figures. */
        static Refusal of(Rule rule, String queue, String resource) {
            return new Refusal(rule, queue, resource, 0, 0, null);
        }
    }

    static ReclaimOutlook waiting(GroupKey gang, String queue, Instant until, Duration delay) {
        return new ReclaimOutlook(gang, queue, State.WAITING, until, delay, List.of(), null);
    }

    static ReclaimOutlook reclaiming(GroupKey gang, String queue, List<Victim> victims) {
        return new ReclaimOutlook(gang, queue, State.RECLAIMING, null, null, victims, null);
    }

    static ReclaimOutlook blocked(GroupKey gang, String queue, Refusal refusal) {
        return new ReclaimOutlook(gang, queue, State.BLOCKED, null, null, List.of(), Objects.requireNonNull(refusal));
    }

    /** The outlook for humans, one sentence or two, to follow why the gang does not fit. */
    public String message() {
        return switch (state) {
            case WAITING -> "Reclaim: queue " + queue + " may take back room from other queues for it once it has"
                    + " waited the queue's reclaimDelay of " + seconds(delay) + ", at " + KubeTime.format(until) + ".";
            case RECLAIMING -> "Reclaiming from queue " + victims.stream().map(Victim::queue).distinct()
                    .collect(Collectors.joining(", ")) + ": evicting " + victims.stream()
                    .map(victim -> victim.gang().toString()).collect(Collectors.joining(", "))
                    + " for it; it waits for their pods to terminate, and their room is held for it.";
            case BLOCKED -> "Reclaim cannot help: " + why() + ".";
        };
    }

    private String why() {
        Refusal r = refusal;
        return switch (r.rule()) {
            case RECLAIM_DISABLED -> "queue " + queue + " does not reclaim (its preemption.reclaim is false)";
            case FAIR_SHARE_REACHED -> "queue " + r.queue() + " would hold more than its fair share of " + r.resource()
                    + " (" + amount(r.amount(), r.resource()) + " of " + amount(r.bound(), r.resource()) + "); a queue never evicts in order to borrow";
            case NOTHING_ABOVE_FAIR_SHARE -> "no other queue holds more than its fair share"
                    + (r.resource() == null ? "" : " of " + r.resource());
            case VICTIM_FAIR_SHARE -> "queue " + r.queue() + " would fall below its fair share of " + r.resource()
                    + " (" + amount(r.amount(), r.resource()) + " of " + amount(r.bound(), r.resource()) + ")";
            case GUARANTEE -> "queue " + r.queue() + " would fall below its guarantee of " + r.resource()
                    + " (" + amount(r.amount(), r.resource()) + " of " + amount(r.bound(), r.resource()) + ")";
            case TABLES -> "queue " + r.queue() + "'s share would be above queue " + r.other() + "'s ("
                    + String.format(Locale.ROOT, "%.2f against %.2f", r.amount(), r.bound())
                    + "); a reclaim never turns the tables";
            case NO_VICTIM_SET_FITS -> "no set of other queues' gangs it may evict makes room for it node by node";
            case NOT_IN_CLUSTER -> "no schedulable node has " + r.resource() + ", so evicting other queues' gangs frees none";
        };
    }

    private static String amount(double value, String resource) {
        return ResourceVector.quantity(resource, (long) Math.floor(value + 1e-9));
    }

    private static String seconds(Duration duration) {
        return duration.toSeconds() + "s";
    }
}
