package dev.muster.api.batch.v1alpha1;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as Go's {@code time.Duration} writes them: parsed from a policy's {@code timeout}, formatted
 * for {@code status.runningDuration}.
 */
public final class GoDuration {
    /** The schema pattern of a duration field: what {@link #parse} accepts. */
    public static final String PATTERN = "^([0-9]+(\\.[0-9]+)?(h|m|s|ms))+$";
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

    /** Formats to whole seconds as Go prints them: {@code 0s}, {@code 2m0s}, {@code 1h2m3s}; negative is 0s. */
    public static String format(Duration duration) {
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
