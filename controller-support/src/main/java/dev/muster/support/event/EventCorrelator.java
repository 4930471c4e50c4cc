package dev.muster.support.event;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Decides whether an Event is new or repeats one already written, as client-go's event correlator does
 * ({@code tools/record/events_cache.go}): the same reason and message on the same object again is the same
 * Event with its count raised (one PATCH instead of a new object), and once an object has had
 * {@link #MAX_SIMILAR} different messages of one type and reason within {@link #SIMILAR_INTERVAL}, the next
 * ones are folded into one Event whose message starts with {@link #COMBINED}. Plain data in, a decision out:
 * {@link EventRecorder} does the writing. Both memories are bounded (least recently used first out, as
 * client-go's caches).
 *
 * <p>client-go also drops Events past a per-object token bucket (its spam filter); this does not, since
 * Muster records Events on decisions that change, not per cycle, and a dropped Event may be the one that
 * says why a job waits.
 */
public final class EventCorrelator {
    /** Different messages of one reason on one object before they are combined (client-go's default). */
    public static final int MAX_SIMILAR = 10;
    /** How long similar messages are counted together; a quieter object starts afresh (client-go: 10 min). */
    public static final Duration SIMILAR_INTERVAL = Duration.ofMinutes(10);
    /** Series and similar-message groups remembered (client-go's cache size). */
    public static final int MAX_REMEMBERED = 4096;
    /** Start of the message of an Event that stands for several similar ones (client-go's wording). */
    public static final String COMBINED = "(combined from similar events): ";

    private final Supplier<String> nameSuffix;
    private final Map<SeriesKey, Series> series = lru();
    private final Map<Similarity, Similar> similar = lru();

    /**
     * @param nameSuffix the suffix of a new Event's name after the object's name and a dot, unique per call
     */
    public EventCorrelator(Supplier<String> nameSuffix) {
        this.nameSuffix = nameSuffix;
    }

    /** The object an Event is about: the fields of {@code involvedObject} that identify it. */
    public record About(String apiVersion, String kind, String namespace, String name, String uid) {
    }

    /** An Event to record: what it is about, its type ({@code Normal}, {@code Warning}), reason and message. */
    public record Incoming(About about, String type, String reason, String message) {
    }

    /**
     * What to write: a new Event ({@code create}) or the count, last time and message of the one named
     * {@code name}, first seen at {@code firstSeen}.
     */
    public record Decision(boolean create, String name, int count, Instant firstSeen, String message) {
    }

    /** The Event to write for {@code event} at {@code now}, remembered for the next call. */
    public synchronized Decision correlate(Incoming event, Instant now) {
        Similarity similarity = new Similarity(event.about(), event.type(), event.reason());
        Similar group = similar.get(similarity);
        if (group == null || Duration.between(group.lastSeen, now).compareTo(SIMILAR_INTERVAL) > 0) {
            group = new Similar();
            similar.put(similarity, group);
        }
        group.lastSeen = now;
        group.messages.add(event.message());
        boolean combined = group.messages.size() >= MAX_SIMILAR;
        if (combined) {
            // Keeps the memory bounded as client-go does: one message forgotten for each combined one.
            group.messages.remove(group.messages.iterator().next());
        }
        String message = combined ? COMBINED + event.message() : event.message();
        SeriesKey key = new SeriesKey(similarity, combined ? COMBINED : event.message());
        Series seen = series.get(key);
        if (seen == null) {
            seen = new Series(event.about().name() + "." + nameSuffix.get(), now);
            series.put(key, seen);
            return new Decision(true, seen.name, seen.count, now, message);
        }
        seen.count++;
        return new Decision(false, seen.name, seen.count, seen.firstSeen, message);
    }

    private static <K, V> Map<K, V> lru() {
        return new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > MAX_REMEMBERED;
            }
        };
    }

    private record Similarity(About about, String type, String reason) {
    }

    private record SeriesKey(Similarity similarity, String message) {
    }

    private static final class Series {
        final String name;
        final Instant firstSeen;
        int count = 1;

        Series(String name, Instant firstSeen) {
            this.name = name;
            this.firstSeen = firstSeen;
        }
    }

    private static final class Similar {
        final Set<String> messages = new HashSet<>();
        Instant lastSeen;
    }
}
