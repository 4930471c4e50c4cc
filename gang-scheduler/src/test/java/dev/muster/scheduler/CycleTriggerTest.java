package dev.muster.scheduler;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.muster.scheduler.Patience.PATIENCE;
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
    void runsPeriodicallyWithoutRequests() {
        release.countDown();
        trigger.start(Duration.ofMillis(50));

        await().atMost(PATIENCE).until(() -> cycles.get() >= 3);
    }
}
