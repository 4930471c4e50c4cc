package dev.muster.cli;

import dev.muster.api.KubeTime;
import java.time.Duration;
import java.time.Instant;

/** Ages as {@code kubectl get} prints them: the largest whole unit, {@code 5s}, {@code 3m}, {@code 2h}, {@code 4d}, {@code 1y}. */
final class Ages {
    private Ages() {
    }

    /** The age of something that happened at {@code then}, seen at {@code now}; {@code <unknown>} without a time. */
    static String since(String then, Instant now) {
        return then == null || then.isEmpty() ? "<unknown>" : of(Duration.between(KubeTime.parse(then), now));
    }

    /**
     * kubectl's short human duration: up to a second of clock skew into the future still reads {@code 0s},
     * more than that is {@code <invalid>}.
     */
    static String of(Duration age) {
        // Truncated toward zero, as Go's int(d.Seconds()): -1.5s is -1, within the tolerated skew.
        long seconds = age.toMillis() / 1000;
        if (seconds < -1) {
            return "<invalid>";
        }
        if (seconds < 60) {
            return Math.max(seconds, 0) + "s";
        }
        if (seconds < 3600) {
            return seconds / 60 + "m";
        }
        long hours = seconds / 3600;
        if (hours < 24) {
            return hours + "h";
        }
        return hours < 24 * 365 ? hours / 24 + "d" : hours / 24 / 365 + "y";
    }
}
