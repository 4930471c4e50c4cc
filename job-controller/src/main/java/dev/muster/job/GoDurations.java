package dev.muster.job;

import java.time.Duration;

/** Formats durations the way Go's {@code time.Duration} prints them, to whole seconds: {@code 1h2m3s}. */
final class GoDurations {
    private GoDurations() {
    }

    static String format(Duration duration) {
        long seconds = Math.max(0, duration.getSeconds());
        long hours = seconds / 3600;
        long minutes = seconds % 3600 / 60;
        long rest = seconds % 60;
        if (hours > 0) {
            return hours + "h" + minutes + "m" + rest + "s";
        }
        if (minutes > 0) {
            return minutes + "m" + rest + "s";
        }
        return rest + "s";
    }
}
