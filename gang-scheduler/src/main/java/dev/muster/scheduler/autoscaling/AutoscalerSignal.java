package dev.muster.scheduler.autoscaling;

import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.placement.GangPlacement;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * How the scheduler shows the cluster autoscaler the gangs that wait for capacity, once per cycle: by
 * ProvisioningRequests ({@link CapacityProvisioner}) or by pending pods ({@link PendingPodsRelease}).
 */
public interface AutoscalerSignal extends AutoCloseable {
    /**
     * Acts on the cycle's results.
     *
     * @return per gang waiting for capacity, what the autoscaler was asked, in words for the gang's verdict
     */
    Map<GroupKey, String> cycle(Collection<PendingGang> gangs, List<GangPlacement> results, Instant now);

    /** Stops watching what it watches. */
    @Override
    void close();
}
