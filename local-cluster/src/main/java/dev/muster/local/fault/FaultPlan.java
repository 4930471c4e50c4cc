package dev.muster.local.fault;


/**
 * Which share of API requests the local cluster fails on purpose, for fault-tolerance tests: each request
 * from a component under test is failed with probability {@code share}, in one of the ways a real API server
 * or its network fails (see {@link FaultInjector}), and each of its watches is closed after a random 0.2 to 2 s
 * whatever the share; the seed makes a run's choices repeatable for the same
 * sequence of requests. Requests of the simulated kubelet and of the local cluster's own client (the
 * observer's client tests read the truth with) are never failed.
 *
 * @param share probability in [0, 1] that a request is failed
 * @param seed  seed of the random choices
 */
public record FaultPlan(double share, long seed) {
    /** No faults: the default. */
    public static final FaultPlan NONE = new FaultPlan(0, 0);

    public FaultPlan {
        if (!(share >= 0 && share <= 1)) {
            throw new IllegalArgumentException("fault share must be between 0 and 1, got " + share);
        }
    }

    /** Whether any request is failed. */
    public boolean active() {
        return share > 0;
    }
}
