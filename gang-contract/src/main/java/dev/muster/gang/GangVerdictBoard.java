package dev.muster.gang;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * In-process hand-off of gang verdicts from the scheduler to the PodGroup controller. It keeps only the
 * latest verdict per group and tells listeners only when what a verdict says changed, so a group that
 * stays unschedulable for many cycles causes one status write, not one per cycle.
 */
public final class GangVerdictBoard {
    private final Map<String, GangVerdict> latest = new ConcurrentHashMap<>();
    private final CopyOnWriteArrayList<Consumer<GangVerdict>> listeners = new CopyOnWriteArrayList<>();

    /** Records a verdict; listeners hear of it only if it differs from the previous one for that group. */
    public void publish(GangVerdict verdict) {
        GangVerdict previous = latest.put(key(verdict.namespace(), verdict.podGroup()), verdict);
        if (!verdict.sameAs(previous)) {
            listeners.forEach(l -> l.accept(verdict));
        }
    }

    /** The latest verdict for a group, if the scheduler has decided on it. */
    public Optional<GangVerdict> latest(String namespace, String podGroup) {
        return Optional.ofNullable(latest.get(key(namespace, podGroup)));
    }

    /** Drops what is known of a deleted group. */
    public void forget(String namespace, String podGroup) {
        latest.remove(key(namespace, podGroup));
    }

    /** Adds a listener called, on the publisher's thread, for every verdict that changed. */
    public void addListener(Consumer<GangVerdict> listener) {
        listeners.add(listener);
    }

    /** Removes a listener added before; it is not called for verdicts published afterwards. */
    public void removeListener(Consumer<GangVerdict> listener) {
        listeners.remove(listener);
    }

    private static String key(String namespace, String name) {
        return namespace + "/" + name;
    }
}
