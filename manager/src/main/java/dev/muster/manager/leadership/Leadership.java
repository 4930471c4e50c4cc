package dev.muster.manager.leadership;

/**
 * Decides whether this process runs the components: with several replicas only one may write, or two
 * schedulers would bind the same room twice and two controllers would fight over every status.
 */
public interface Leadership {

    /**
     * Starts campaigning. {@code onLeading} runs once, when this process becomes the leader; {@code onLost}
     * runs at most once, if it stops being the leader for any reason other than {@link #stop()}. Both run on
     * the election's own thread.
     */
    void start(Runnable onLeading, Runnable onLost);

    /** Stops campaigning and hands the lease back if this process holds it; {@code onLost} does not run. */
    void stop();

    /**
     * Whether this process may write to the cluster now: it leads, and no other replica can have taken over
     * since. Checked before every write request ({@link WriteFence}); must be quick and never block.
     */
    boolean mayWrite();

    /** What this process knows now, for health and metrics. */
    LeadershipStatus status();
}
