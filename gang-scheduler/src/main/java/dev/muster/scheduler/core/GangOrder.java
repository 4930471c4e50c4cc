package dev.muster.scheduler.core;

import java.util.Comparator;

/**
 * The order in which a cycle tries gangs, as the coscheduling plugin sorts its queue: higher priority
 * first, then the older gang; namespace and name make the order total so cycles are reproducible.
 */
public final class GangOrder {
    /** Priority descending, then creation time ascending, then by key. */
    public static final Comparator<GangInfo> PRIORITY_THEN_AGE = Comparator
            .comparingInt(GangInfo::priority).reversed()
            .thenComparing(GangInfo::createdAt)
            .thenComparing(gang -> gang.key().namespace())
            .thenComparing(gang -> gang.key().name())
            .thenComparing(gang -> gang.key().standalonePod());

    private GangOrder() {
    }
}
