package dev.muster.support;

import org.awaitility.core.ThrowingRunnable;

import java.time.Duration;
import java.util.concurrent.Callable;

import static org.awaitility.Awaitility.await;

/**
 * A check that something does not happen (a pod is not bound, a status is not written), made to prove that it
 * could have. Polling "still nothing" for a window alone passes just as well when the component under test is
 * stopped, broken or too slow to act within the window. So each check names a witness first: an event that shows
 * the component is live and has handled the subject since the change under test (a twin that differs only in the
 * property under test got bound, the scheduler decided on the group again, a cycle counter moved). The absence is
 * asserted all the while the witness is awaited, and then for the window on top.
 *
 * <p>Shared by the test jars that depend on this one; the waits are the caller's {@code Patience}, passed in, so
 * each module keeps its own.
 */
public final class Stillness {
    private Stillness() {
    }

    /**
     * Asserts that {@code stillSo} holds until {@code witness} is true and then throughout {@code window}.
     *
     * @param patience  how long the witness may take (the calling module's {@code Patience.PATIENCE})
     * @param witnessed what the witness shows, for the failure message
     * @param witness   true once the component has handled the subject after the change under test
     * @param window    how long the absence must hold after the witness
     * @param stillSo   the assertion that nothing happened
     */
    public static void holds(Duration patience, String witnessed, Callable<Boolean> witness, Duration window,
                             ThrowingRunnable stillSo) {
        await("positive control: " + witnessed).atMost(patience)
                .failFast("it happened before the positive control did", stillSo)
                .until(witness);
        await("nothing happens for " + window + " after: " + witnessed).during(window).atMost(window.plus(patience))
                .untilAsserted(stillSo);
    }
}
