package dev.muster.scheduler.core.queue;

import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.PendingGang;

import java.time.Instant;
import java.util.Comparator;

/**
 * The order in which a cycle tries gangs, as the coscheduling plugin sorts its queue: higher priority
 * first, then the older gang. Within a priority, a gang that failed sorts behind every gang that has
 * not, and failed gangs take turns by when they last failed, so a big gang that does not fit cannot
 * keep the capacity that frees up from gangs behind it. Namespace and name make the order total, so
 * cycles are reproducible.
 */
public final class GangOrder {
    /** Priority descending, then creation time ascending, then by key. */
    public static final Comparator<GangInfo> PRIORITY_THEN_AGE = Comparator
            .comparingInt(GangInfo::priority).reversed()
            .thenComparing(GangInfo::createdAt)
            .thenComparing(gang -> gang.key().namespace())
            .thenComparing(gang -> gang.key().name())
            .thenComparing(gang -> gang.key().standalonePod());

    /** Priority descending; then gangs that did not fail, oldest first; then failed ones, earliest failure first. */
    public static final Comparator<PendingGang> QUEUE = Comparator
            .comparing((PendingGang gang) -> gang.gang().priority(), Comparator.reverseOrder())
            .thenComparing(PendingGang::lastFailedAt, Comparator.nullsFirst(Comparator.<Instant>naturalOrder()))
            .thenComparing(PendingGang::gang, PRIORITY_THEN_AGE);

    private GangOrder() {
    }
}
