package dev.muster.support;

import dev.muster.gang.GangVerdict;
import dev.muster.gang.GangVerdictBoard;

import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A positive control for {@link Stillness} where the gang scheduler is live: it decided on a
 * waiting group again after the change under test. Every cycle publishes a verdict for every waiting group, stamped
 * with the cycle's start; a cycle that starts after the first such verdict began after that cycle ended, so it took
 * its snapshot after the call and could have placed the group.
 */
public final class Decided {
    private Decided() {
    }

    /** True once two cycles started after this call have decided on the group. */
    public static Callable<Boolean> again(GangVerdictBoard board, String namespace, String podGroup) {
        Instant mark = Instant.now();
        AtomicReference<Instant> first = new AtomicReference<>();
        return () -> {
            Instant at = board.latest(namespace, podGroup).map(GangVerdict::decidedAt).orElse(null);
            if (at == null || !at.isAfter(mark)) {
                return false;
            }
            first.compareAndSet(null, at);
            return at.isAfter(first.get());
        };
    }
}
