package dev.muster.scheduler;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.muster.scheduler.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class CycleTriggerTest {
    private final AtomicInteger cycles = new AtomicInteger();
    private final CountDownLatch release = new CountDownLatch(1);
    private final CycleTrigger trigger = new CycleTrigger("test-cycle", () -> {
        if (cycles.incrementAndGet() == 1) {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    });

    @AfterEach
    void stop() {
        release.countDown();
        trigger.stop();
    }

    @Test
    void requestsDuringACycleCoalesceIntoOneMoreCycle() {
        trigger.request();
        await().until(() -> cycles.get() == 1);
        for (int i = 0; i < 50; i++) {
            trigger.request();
        }

        release.countDown();

        await().until(() -> cycles.get() == 2);
        await().during(Duration.ofMillis(300)).atMost(PATIENCE).until(() -> cycles.get() == 2);
        // The control: the trigger is still live, so had a third cycle been requested, it would have run.
        trigger.request();
        await().atMost(PATIENCE).until(() -> cycles.get() == 3);
    }

    @Test
    void aCycleAskedForDuringACycleRestsAfterItEndedAsItsLengthSays() {
        List<long[]> spans = new CopyOnWriteArrayList<>();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch longCycle = new CountDownLatch(1);
        CycleTrigger timed = new CycleTrigger("timed-cycle", () -> {
            long start = System.nanoTime();
            if (spans.isEmpty()) {
                started.countDown();
                try {
                    longCycle.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            spans.add(new long[] {start, System.nanoTime()});
        });
        try {
            timed.request();
            // The first cycle lasts at least this long from its own start (not from the request, which the cycle's
            // thread may take up a little later), so that its rest is long enough to be seen.
            await().atMost(PATIENCE).until(() -> started.getCount() == 0);
            await().pollDelay(Duration.ofMillis(100)).until(() -> true);
            timed.request();
            longCycle.countDown();

            await().atMost(PATIENCE).until(() -> spans.size() == 2);
            long took = spans.get(0)[1] - spans.get(0)[0];
            long rested = spans.get(1)[0] - spans.get(0)[1];
            assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(100).toNanos());
            assertThat(rested).isGreaterThanOrEqualTo(CycleTrigger.restAfter(Duration.ofNanos(took)).toNanos())
                    .isGreaterThan(took);
        } finally {
            longCycle.countDown();
            timed.stop();
        }
    }

    @Test
    void theRestIsFourTimesAsLongAsTheCycleTookUpToOneSecond() {
        assertThat(CycleTrigger.restAfter(Duration.ofMillis(20))).isEqualTo(Duration.ofMillis(80));
        assertThat(CycleTrigger.restAfter(Duration.ofMillis(300))).isEqualTo(CycleTrigger.MAX_REST);
        assertThat(CycleTrigger.restAfter(Duration.ofSeconds(7))).isEqualTo(CycleTrigger.MAX_REST)
                .isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void runsPeriodicallyWithoutRequests() {
        release.countDown();
        trigger.start(Duration.ofMillis(50));

        await().atMost(PATIENCE).until(() -> cycles.get() >= 3);
    }
}
