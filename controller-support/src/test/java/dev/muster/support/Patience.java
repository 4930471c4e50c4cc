package dev.muster.support;

import java.time.Duration;

/**
 * How long a test of this module waits for the system under test to reach a state it should reach: one value
 * for the whole test jar, rather than one per class. Generous on purpose: it bounds how long a failing test
 * takes to say so, never how fast anything must be (that is the benchmarks' business), so a loaded machine
 * does not fail a test. Windows in which something must not happen are not timeouts and stay with their tests.
 */
public final class Patience {
    /** The longest a test waits for an expected state. */
    public static final Duration PATIENCE = Duration.ofSeconds(30);

    private Patience() {
    }
}
