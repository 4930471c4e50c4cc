package dev.muster.job;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SlowStartBatchTest {
    private final ExecutorService executor = Executors.newFixedThreadPool(4);

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    @Test
    void everyItemIsCalledOnce() {
        List<Integer> items = IntStream.range(0, 100).boxed().toList();
        List<Integer> called = Collections.synchronizedList(new ArrayList<>());

        SlowStartBatch.run(items, executor, called::add);

        assertThat(called).containsExactlyInAnyOrderElementsOf(items);
    }

    @Test
    void aFailureEndsItsBatchAndNoLaterBatchStarts() {
        // Batches are [0], [1, 2], [3..6], [7..14]: item 4 fails in the third batch.
        List<Integer> items = IntStream.range(0, 15).boxed().toList();
        List<Integer> called = Collections.synchronizedList(new ArrayList<>());

        assertThatThrownBy(() -> SlowStartBatch.run(items, executor, item -> {
            called.add(item);
            if (item == 4) {
                throw new IllegalStateException("quota exceeded");
            }
        })).isInstanceOfSatisfying(SlowStartBatch.Failure.class, failure -> {
            assertThat(failure.item()).isEqualTo(4);
            assertThat(failure.getCause()).hasMessage("quota exceeded");
        });
        assertThat(called).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6);
    }

    @Test
    void nothingToDoCallsNothing() {
        SlowStartBatch.run(List.of(), executor, item -> {
            throw new AssertionError("called for " + item);
        });
    }
}
