package dev.muster.support.controller;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.muster.support.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class ControllerFailureTest {
    private static final ObjectKey KEY = new ObjectKey("team", "train");

    /** Fails (with an Error, the worst case for a worker thread) until {@code failures} calls, then succeeds. */
    private static final class FlakyReconciler implements Reconciler {
        final AtomicInteger calls = new AtomicInteger();
        final List<String> reports = new CopyOnWriteArrayList<>();
        private final int failures;

        FlakyReconciler(int failures) {
            this.failures = failures;
        }

        @Override
        public ReconcileResult reconcile(ObjectKey key) {
            if (calls.incrementAndGet() <= failures) {
                throw new AssertionError("broken " + calls.get());
            }
            return ReconcileResult.done();
        }

        @Override
        public void failing(ObjectKey key, Throwable failure, int attempts) {
            reports.add("failing " + key + " " + attempts + " " + failure.getMessage());
        }

        @Override
        public void recovered(ObjectKey key) {
            reports.add("recovered " + key);
        }
    }

    @Test
    void aKeyThatKeepsFailingIsReportedFromTheThresholdOnAndRecoveredOnce() {
        FlakyReconciler reconciler = new FlakyReconciler(Controller.FAILING_AFTER + 1);
        try (Controller controller = new Controller("test", reconciler, 1, Duration.ofMillis(1), Duration.ofMillis(5))) {
            controller.start();
            controller.enqueue(KEY);

            await().atMost(PATIENCE).until(() -> reconciler.reports.contains("recovered " + KEY));

            int n = Controller.FAILING_AFTER;
            assertThat(reconciler.reports).containsExactly(
                    "failing " + KEY + " " + n + " broken " + n,
                    "failing " + KEY + " " + (n + 1) + " broken " + (n + 1),
                    "recovered " + KEY);
            assertThat(controller.deadWorkers()).isZero();
        }
    }

    @Test
    void aKeyThatFailsFewerTimesIsNeverReported() {
        FlakyReconciler reconciler = new FlakyReconciler(Controller.FAILING_AFTER - 1);
        try (Controller controller = new Controller("test", reconciler, 1, Duration.ofMillis(1), Duration.ofMillis(5))) {
            controller.start();
            controller.enqueue(KEY);

            await().atMost(PATIENCE).until(() -> reconciler.calls.get() == Controller.FAILING_AFTER);

            assertThat(reconciler.reports).isEmpty();
        }
    }

    @Test
    void aWorkerKilledFromOutsideShowsAsDead() {
        FlakyReconciler reconciler = new FlakyReconciler(0);
        Controller controller = new Controller("test", reconciler, 2);
        controller.start();
        Thread worker = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("test-worker-0")).findFirst().orElseThrow();

        worker.interrupt();

        await().atMost(PATIENCE).until(() -> controller.deadWorkers() == 1);
        controller.close();
        assertThat(controller.deadWorkers()).as("a closed controller has no workers to lose").isZero();
    }
}
