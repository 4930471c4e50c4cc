package dev.muster.simulator;

import java.time.Instant;
import java.util.Objects;

/**
 * One job of a trace.
 *
 * @param id       unique within the trace: the job's line number in its file
 * @param submit   when it was submitted, which is when it arrives at the scheduler
 * @param duration how long it runs once all its pods are placed, in seconds (at least 1)
 * @param gpus     GPUs it needs at once (at least 1)
 * @param vc       its virtual cluster (team); empty if the trace names none
 */
public record TraceJob(long id, Instant submit, long duration, int gpus, String vc) {
    public TraceJob {
        Objects.requireNonNull(submit, "submit");
        if (duration < 1) {
            throw new IllegalArgumentException("duration must be at least 1 s: " + duration);
        }
        if (gpus < 1) {
            throw new IllegalArgumentException("gpus must be at least 1: " + gpus);
        }
        vc = vc == null ? "" : vc;
    }
}
