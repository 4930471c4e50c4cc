package dev.muster.support.controller;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import static dev.muster.support.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class ControllerFailureTest {
    private static final ObjectKey KEY = new ObjectKey("team", "train");

    /**
     * Fails until {@code failures} calls, then succeeds; by default with an Error, the worst case for a worker
     * thread.
     */
    private static final class FlakyReconciler implements Reconciler {
        final AtomicInteger calls = new AtomicInteger();
        final List<String> reports = new CopyOnWriteArrayList<>();
        private final int failures;
        private final IntFunction<Exception> failure;

        FlakyReconciler(int failures) {
            this(failures, null);
        }

        FlakyReconciler(int failures, IntFunction<Exception> failure) {
            this.failures = failures;
            this.failure = failure;
        }

        @Override
        public ReconcileResult reconcile(ObjectKey key) throws Exception {
            int call = calls.incrementAndGet();
            if (call <= failures) {
                if (failure != null) {
                    throw failure.apply(call);
                }
                throw new AssertionError("broken " + call);
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

    private static KubernetesClientException notFound(String name) {
        return new KubernetesClientException(new StatusBuilder().withCode(404).withReason("NotFound")
                .withNewDetails().withName(name).withKind("jobs").endDetails().build());
    }

    /** An object deleted while it was reconciled is no failure to warn about; a 404 that persists still is one. */
    @Test
    void aReconcileThatFindsItsObjectDeletedRetriesWithoutAWarningUnlessTheRetryFindsThatToo() {
        Logger log = (Logger) LoggerFactory.getLogger(Controller.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        log.addAppender(logged);
        FlakyReconciler once = new FlakyReconciler(1, call -> notFound(KEY.name()));
        FlakyReconciler always = new FlakyReconciler(Controller.FAILING_AFTER, call -> notFound(KEY.name()));
        try (Controller first = new Controller("once", once, 1, Duration.ofMillis(1), Duration.ofMillis(5));
             Controller second = new Controller("always", always, 1, Duration.ofMillis(1), Duration.ofMillis(5))) {
            first.start();
            first.enqueue(KEY);
            await().atMost(PATIENCE).until(() -> once.calls.get() == 2);
            second.start();
            second.enqueue(KEY);
            await().atMost(PATIENCE).until(() -> always.calls.get() == Controller.FAILING_AFTER + 1);
        } finally {
            log.detachAppender(logged);
        }

        assertThat(logged.list).filteredOn(e -> e.getLevel() == Level.WARN).extracting(ILoggingEvent::getFormattedMessage)
                .allMatch(m -> m.startsWith("always: reconcile of " + KEY + " failed (attempt "))
                .hasSize(Controller.FAILING_AFTER - 1);
        assertThat(once.reports).isEmpty();
        assertThat(always.reports).hasSize(2).endsWith("recovered " + KEY).first().asString()
                .startsWith("failing " + KEY + " " + Controller.FAILING_AFTER + " ");
    }

    @Test
    void aWorkerKilledFromOutsideShowsAsDead() {
        FlakyReconciler reconciler = new FlakyReconciler(0);
        // A name no other test's controller has: a worker of an earlier test's controller may still be ending, and
        // interrupting it instead would leave this controller's workers alive.
        Controller controller = new Controller("killed", reconciler, 2);
        controller.start();
        Thread worker = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("killed-worker-0")).findFirst().orElseThrow();

        worker.interrupt();

        await().atMost(PATIENCE).until(() -> controller.deadWorkers() == 1);
        controller.close();
        assertThat(controller.deadWorkers()).as("a closed controller has no workers to lose").isZero();
    }
}
