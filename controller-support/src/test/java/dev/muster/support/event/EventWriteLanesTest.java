package dev.muster.support.event;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.stream.IntStream;

import static dev.muster.support.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class EventWriteLanesTest {

    @Test
    void oneObjectsWritesAreMadeInTheOrderTheyWereQueued() {
        EventWriteLanes lanes = new EventWriteLanes("test", 4, 1_000);
        List<Integer> written = new CopyOnWriteArrayList<>();

        for (int i = 0; i < 500; i++) {
            int n = i;
            assertThat(lanes.submit("default/job-" + (i % 7), () -> written.add(n))).isTrue();
        }

        await().atMost(PATIENCE).until(() -> written.size() == 500);
        for (int object = 0; object < 7; object++) {
            int o = object;
            List<Integer> ofObject = written.stream().filter(n -> n % 7 == o).toList();
            assertThat(ofObject).isEqualTo(IntStream.range(0, 500).filter(n -> n % 7 == o).boxed().toList());
        }
    }

    @Test
    void aFullLaneRefusesTheWriteAndTakesWritesAgainOnceItDrains() throws InterruptedException {
        EventWriteLanes lanes = new EventWriteLanes("test", 1, 1);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> written = new CopyOnWriteArrayList<>();

        assertThat(lanes.submit("a", () -> {
            running.countDown();
            awaitQuietly(release);
            written.add("first");
        })).isTrue();
        running.await();
        assertThat(lanes.submit("a", () -> written.add("queued"))).isTrue();
        assertThat(lanes.submit("b", () -> written.add("refused"))).isFalse();

        release.countDown();
        await().atMost(PATIENCE).until(() -> written.size() == 2);
        assertThat(lanes.submit("b", () -> written.add("after"))).isTrue();
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(written).containsExactly("first", "queued", "after"));
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
