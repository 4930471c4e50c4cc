package dev.muster.local.autoscaler;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Shape of the local cluster's simulated cluster autoscaler; it runs only when there is at least one node group.
 *
 * @param nodeGroups     the groups it may grow and shrink, names unique
 * @param scaleDownDelay how long a group's node stays empty before it is removed (Cluster Autoscaler's
 *                       {@code --scale-down-unneeded-time}, 10 minutes by default)
 * @param bookingTime    how long the capacity of a provisioned ProvisioningRequest stays booked before
 *                       {@code BookingExpired} (10 minutes in Cluster Autoscaler)
 * @param scanInterval   time between two passes over requests, pending pods and nodes (Cluster Autoscaler's
 *                       {@code --scan-interval}, 10 seconds there)
 */
public record AutoscalerConfig(List<NodeGroup> nodeGroups, Duration scaleDownDelay, Duration bookingTime,
                               Duration scanInterval) {
    /** No node groups (no autoscaler), Cluster Autoscaler's 10 minute scale-down delay and booking, 1 s scans. */
    public static final AutoscalerConfig NONE = new AutoscalerConfig(List.of(), Duration.ofMinutes(10),
            Duration.ofMinutes(10), Duration.ofSeconds(1));

    public AutoscalerConfig {
        nodeGroups = List.copyOf(Objects.requireNonNull(nodeGroups, "nodeGroups"));
        Set<String> names = new HashSet<>();
        for (NodeGroup group : nodeGroups) {
            if (!names.add(group.name())) {
                throw new IllegalArgumentException("node group " + group.name() + " is given twice");
            }
        }
        requirePositive(scaleDownDelay, "scaleDownDelay");
        requirePositive(bookingTime, "bookingTime");
        requirePositive(scanInterval, "scanInterval");
    }

    /** Whether the autoscaler runs: it has at least one node group. */
    public boolean enabled() {
        return !nodeGroups.isEmpty();
    }

    public AutoscalerConfig withNodeGroups(List<NodeGroup> nodeGroups) {
        return new AutoscalerConfig(nodeGroups, scaleDownDelay, bookingTime, scanInterval);
    }

    public AutoscalerConfig withScaleDownDelay(Duration scaleDownDelay) {
        return new AutoscalerConfig(nodeGroups, scaleDownDelay, bookingTime, scanInterval);
    }

    public AutoscalerConfig withBookingTime(Duration bookingTime) {
        return new AutoscalerConfig(nodeGroups, scaleDownDelay, bookingTime, scanInterval);
    }

    public AutoscalerConfig withScanInterval(Duration scanInterval) {
        return new AutoscalerConfig(nodeGroups, scaleDownDelay, bookingTime, scanInterval);
    }

    private static void requirePositive(Duration duration, String name) {
        if (Objects.requireNonNull(duration, name).isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, got " + duration);
        }
    }
}
