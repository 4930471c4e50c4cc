package dev.muster.api;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * Kubernetes' timestamps on the wire (metav1.Time, MicroTime): RFC 3339. Written in UTC, metav1.Time to the whole
 * second, as the API server keeps it, MicroTime with exactly six digits of fraction, as Go decodes it; read with
 * any offset and fraction. The one place Muster parses and writes them.
 */
public final class KubeTime {
    private static final DateTimeFormatter MICRO_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    private KubeTime() {
    }

    /** {@code instant} as metav1.Time: RFC 3339 in UTC, whole seconds ({@code 2026-11-27T20:55:50Z}). */
    public static String format(Instant instant) {
        return DateTimeFormatter.ISO_INSTANT.format(instant.truncatedTo(ChronoUnit.SECONDS));
    }

    /**
     * {@code instant} as metav1.MicroTime ({@code 2026-11-27T20:55:50.538215Z}): Go decodes one with the exact layout
     * {@code 2006-01-02T15:04:05.000000Z07:00}, six digits of fraction, no more and no fewer, or kube-apiserver
     * refuses the object (400).
     */
    public static String formatMicro(Instant instant) {
        return MICRO_TIME.format(instant);
    }

    /**
     * The instant an RFC 3339 timestamp names.
     *
     * @throws DateTimeParseException when the text is not RFC 3339
     */
    public static Instant parse(String text) {
        return OffsetDateTime.parse(text).toInstant();
    }

    /** The instant the timestamp names; empty when it is missing, blank or not RFC 3339. */
    public static Optional<Instant> tryParse(String text) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(parse(text));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
