package dev.muster.manager.leadership;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election switched off ({@code muster.leader-election.enabled=false}): this process is the only
 * replica, so it leads from the start and never loses. For {@code ./muster local} and single-replica
 * installs that do not want a Lease.
 */
public final class UncontestedLeadership implements Leadership {
    private static final Logger log = LoggerFactory.getLogger(UncontestedLeadership.class);

    private final String identity;
    private volatile boolean leading;

    /** @param identity this process's name, shown in health */
    public UncontestedLeadership(String identity) {
        this.identity = identity;
    }

    @Override
    public void start(Runnable onLeading, Runnable onLost) {
        log.info("leader election disabled: {} runs the components without a lease", identity);
        leading = true;
        onLeading.run();
    }

    @Override
    public void stop() {
        leading = false;
    }

    /** The only replica may write while it runs. */
    @Override
    public boolean mayWrite() {
        return leading;
    }

    @Override
    public LeadershipStatus status() {
        return new LeadershipStatus(false, leading, identity, null, null);
    }
}
