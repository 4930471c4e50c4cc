package dev.muster.support.controller;

import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.muster.support.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class KeyedWorkQueueTest {
    private final KeyedWorkQueue<String> queue = new KeyedWorkQueue<>("test", Duration.ofMillis(10), Duration.ofMillis(80));

    @AfterEach
    void close() {
        queue.close();
    }

    @Test
    void aKeyAddedTwiceWaitsOnce() throws InterruptedException {
        queue.add("a");
        queue.add("b");
        queue.add("a");
        assertThat(queue.size()).isEqualTo(2);
        assertThat(queue.take()).isEqualTo("a");
        assertThat(queue.take()).isEqualTo("b");
    }

    @Test
    void aKeyInWorkIsNotHandedOutAgainUntilDone() throws InterruptedException {
        queue.add("a");
        assertThat(queue.take()).isEqualTo("a");
        queue.add("a");
        assertThat(queue.size()).as("re-added while in work: held back").isZero();
        queue.done("a");
        assertThat(queue.size()).isEqualTo(1);
        assertThat(queue.take()).isEqualTo("a");
    }

    @Test
    void backoffDoublesUpToTheCap() {
        assertThat(queue.backoff(1)).isEqualTo(Duration.ofMillis(10));
        assertThat(queue.backoff(2)).isEqualTo(Duration.ofMillis(20));
        assertThat(queue.backoff(4)).isEqualTo(Duration.ofMillis(80));
        assertThat(queue.backoff(40)).isEqualTo(Duration.ofMillis(80));
    }

    @Test
    void controllerRetriesAFailingKeyAndNeverRunsOneKeyConcurrently() {
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger concurrent = new AtomicInteger();
        List<Integer> maxSeen = Collections.synchronizedList(new ArrayList<>());
        Reconciler reconciler = key -> {
            maxSeen.add(concurrent.incrementAndGet());
            try {
                if (calls.incrementAndGet() < 3) {
                    throw new IllegalStateException("transient");
                }
                return ReconcileResult.done();
            } finally {
                concurrent.decrementAndGet();
            }
        };
        try (Controller controller = new Controller("test", reconciler, 4, Duration.ofMillis(5), Duration.ofMillis(20))) {
            controller.start();
            ObjectKey key = new ObjectKey("ns", "a");
            for (int i = 0; i < 20; i++) {
                controller.enqueue(key);
            }
            await().atMost(PATIENCE).until(() -> calls.get() >= 3);
            assertThat(maxSeen).allMatch(n -> n == 1);
        }
    }

    @Test
    void aConflictIsRetriedWithoutCountingAsAFailure() {
        AtomicInteger calls = new AtomicInteger();
        Reconciler reconciler = key -> {
            if (calls.incrementAndGet() == 1) {
                throw new KubernetesClientException("the object has been modified", 409, null);
            }
            return ReconcileResult.done();
        };
        // A backoff far longer than the test: only the conflict path can bring the key back in time.
        try (Controller controller = new Controller("test", reconciler, 1, Duration.ofMinutes(5), Duration.ofMinutes(5))) {
            controller.start();
            controller.enqueue(new ObjectKey("ns", "a"));
            await().atMost(PATIENCE).until(() -> calls.get() == 2);
        }
    }
}
