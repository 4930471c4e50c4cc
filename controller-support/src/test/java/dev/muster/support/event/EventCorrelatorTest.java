package dev.muster.support.event;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class EventCorrelatorTest {
    private static final Instant T0 = Instant.parse("2026-11-27T12:00:00Z");
    private static final EventCorrelator.About JOB =
            new EventCorrelator.About("batch.muster.dev/v1alpha1", "Job", "default", "train", "uid-1");

    private final AtomicInteger suffixes = new AtomicInteger();
    private final EventCorrelator correlator = new EventCorrelator(() -> "s" + suffixes.incrementAndGet());

    private EventCorrelator.Decision record(EventCorrelator.About about, String reason, String message, Instant at) {
        return correlator.correlate(new EventCorrelator.Incoming(about, "Warning", reason, message), at);
    }

    @Test
    void theFirstEventIsNewAndNamedAfterItsObject() {
        EventCorrelator.Decision first = record(JOB, "FailedScheduling", "no room", T0);

        assertThat(first).isEqualTo(new EventCorrelator.Decision(true, "train.s1", 1, T0, "no room"));
    }

    @Test
    void aRepeatRaisesTheCountOfTheSameEventAndKeepsItsFirstTime() {
        record(JOB, "FailedScheduling", "no room", T0);
        record(JOB, "FailedScheduling", "no room", T0.plusSeconds(5));

        EventCorrelator.Decision third = record(JOB, "FailedScheduling", "no room", T0.plusSeconds(9));

        assertThat(third).isEqualTo(new EventCorrelator.Decision(false, "train.s1", 3, T0, "no room"));
    }

    @Test
    void anotherReasonMessageOrObjectIsAnotherEvent() {
        record(JOB, "FailedScheduling", "no room", T0);
        var other = new EventCorrelator.About("batch.muster.dev/v1alpha1", "Job", "default", "eval", "uid-2");

        assertThat(record(JOB, "Admitted", "no room", T0).create()).isTrue();
        assertThat(record(JOB, "FailedScheduling", "still no room", T0).create()).isTrue();
        assertThat(record(other, "FailedScheduling", "no room", T0).name()).isEqualTo("eval.s4");
    }

    @Test
    void theTenthDifferentMessageOfOneReasonIsCombinedAndLaterOnesCountOnIt() {
        for (int i = 1; i < EventCorrelator.MAX_SIMILAR; i++) {
            assertThat(record(JOB, "FailedScheduling", i + " of 10 nodes busy", T0).create()).isTrue();
        }

        EventCorrelator.Decision tenth = record(JOB, "FailedScheduling", "10 of 10 nodes busy", T0.plusSeconds(1));
        EventCorrelator.Decision eleventh = record(JOB, "FailedScheduling", "11 of 12 nodes busy", T0.plusSeconds(2));

        assertThat(tenth.create()).isTrue();
        assertThat(tenth.message()).isEqualTo(EventCorrelator.COMBINED + "10 of 10 nodes busy");
        assertThat(eleventh).isEqualTo(new EventCorrelator.Decision(false, tenth.name(), 2, T0.plusSeconds(1),
                EventCorrelator.COMBINED + "11 of 12 nodes busy"));
    }

    @Test
    void similarMessagesAreCountedAfreshAfterAQuietInterval() {
        for (int i = 1; i < EventCorrelator.MAX_SIMILAR; i++) {
            record(JOB, "FailedScheduling", i + " busy", T0);
        }

        Instant later = T0.plus(EventCorrelator.SIMILAR_INTERVAL).plusSeconds(1);
        EventCorrelator.Decision afterQuiet = record(JOB, "FailedScheduling", "10 busy", later);

        assertThat(afterQuiet.create()).isTrue();
        assertThat(afterQuiet.message()).isEqualTo("10 busy");
    }

    @Test
    void rememberedSeriesAreBounded() {
        for (int i = 0; i <= EventCorrelator.MAX_REMEMBERED; i++) {
            var about = new EventCorrelator.About("v1", "Pod", "default", "p" + i, "u" + i);
            record(about, "Started", "started", T0);
        }

        var first = new EventCorrelator.About("v1", "Pod", "default", "p0", "u0");
        assertThat(record(first, "Started", "started", T0).create()).as("the least recently used is forgotten").isTrue();
        var last = new EventCorrelator.About("v1", "Pod", "default", "p" + EventCorrelator.MAX_REMEMBERED,
                "u" + EventCorrelator.MAX_REMEMBERED);
        assertThat(record(last, "Started", "started", T0).create()).isFalse();
    }
}
