package dev.muster.scheduler;

import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;

import java.util.HashMap;
import java.util.Map;

/** PriorityClass values by name, and which class is the global default; fed by the informer. */
final class PriorityClasses {
    private final Map<String, Entry> classes = new HashMap<>();
    private int globalDefault;

    /** @return whether the class is new or its value or default-ness changed */
    boolean put(PriorityClass priorityClass) {
        Entry now = new Entry(priorityClass.getValue() == null ? 0 : priorityClass.getValue(),
                Boolean.TRUE.equals(priorityClass.getGlobalDefault()));
        boolean changed = !now.equals(classes.put(priorityClass.getMetadata().getName(), now));
        globalDefault = computeGlobalDefault();
        return changed;
    }

    /** @return whether the class was known */
    boolean remove(PriorityClass priorityClass) {
        boolean known = classes.remove(priorityClass.getMetadata().getName()) != null;
        globalDefault = computeGlobalDefault();
        return known;
    }

    /** The value of the named class; {@code null} if no name is given or no such class is known. */
    Integer valueOf(String name) {
        Entry entry = name == null ? null : classes.get(name);
        return entry == null ? null : entry.value();
    }

    /**
     * The value of the global default class, 0 without one. Should several claim it (the API server
     * forbids it, a race can cause it), the highest wins, so the answer does not depend on map order.
     */
    int globalDefault() {
        return globalDefault;
    }

    private int computeGlobalDefault() {
        return classes.values().stream().filter(Entry::globalDefault).mapToInt(Entry::value).max().orElse(0);
    }

    private record Entry(int value, boolean globalDefault) {
    }
}
