package dev.muster.support.jvm;

/**
 * Gives the JVM's common {@link java.util.concurrent.ForkJoinPool} at least two threads; call it first thing in
 * {@code main}, before anything starts the pool, which reads its size once.
 *
 * <p>Why: on a machine or container of two CPUs or fewer the pool's default size is one, and then
 * {@link java.util.concurrent.CompletableFuture} runs each asynchronous step on a thread of its own, started for
 * it and ended after it. The JDK's HttpClient, fabric8's transport here, completes every response through such a
 * step (its {@code sendAsync} hops to the future's default executor), so each API request started a thread:
 * 16,000 threads for 1,000 one-pod Jobs in {@code ./muster local} on a 2-CPU machine, and the run took a third
 * longer than with two pool threads. A parallelism the user sets
 * ({@code -Djava.util.concurrent.ForkJoinPool.common.parallelism}) is kept.
 */
public final class CommonPoolParallelism {
    /** The system property the common pool reads its parallelism from. */
    public static final String PROPERTY = "java.util.concurrent.ForkJoinPool.common.parallelism";

    private CommonPoolParallelism() {
    }

    /** Sets the common pool's parallelism to two where it would be less and the user has not set it. */
    public static void atLeastTwo() {
        if (System.getProperty(PROPERTY) == null && Runtime.getRuntime().availableProcessors() <= 2) {
            System.setProperty(PROPERTY, "2");
        }
    }
}
