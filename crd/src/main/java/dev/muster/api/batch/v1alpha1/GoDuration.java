package dev.muster.api.batch.v1alpha1;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses durations written as Go's {@code time.Duration} prints them, as in a policy's {@code timeout}. */
public final class GoDuration {
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(h|ms|m|s)");

    private GoDuration() {
    }

    /**
     * Parses a sequence of number-unit pairs in h, m, s or ms, e.g. {@code 1h30m}, {@code 90s}, {@code 1.5s}.
     *
     * @throws IllegalArgumentException if the text is not such a duration
     */
    public static Duration parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("empty duration");
        }
        Matcher m = PART.matcher(text);
        Duration total = Duration.ZERO;
        int end = 0;
        while (end < text.length() && m.find(end) && m.start() == end) {
            double amount = Double.parseDouble(m.group(1));
            long millis = switch (m.group(2)) {
                case "h" -> Math.round(amount * 3_600_000);
                case "m" -> Math.round(amount * 60_000);
                case "s" -> Math.round(amount * 1_000);
                default -> Math.round(amount);
            };
            total = total.plusMillis(millis);
            end = m.end();
        }
        if (end != text.length() || end == 0) {
            throw new IllegalArgumentException("'" + text + "' is not a duration like 30s, 5m or 1h30m");
        }
        return total;
    }
}
