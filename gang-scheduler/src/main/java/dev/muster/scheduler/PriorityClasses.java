package dev.muster.scheduler;

import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;

import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;

/** PriorityClass values by name, and which class is the global default; fed by the informer. */
final class PriorityClasses {
    private final Map<String, Entry> classes = new HashMap<>();
    private String globalDefault;

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
     * The value of the global default class, 0 without one. Should several claim it (the API server forbids it, a
     * race can cause it), the lowest wins, as kube-apiserver's Priority admission picks it.
     */
    int globalDefault() {
        return globalDefault == null ? 0 : classes.get(globalDefault).value();
    }

    /** The name of the global default class, which the API server gives a pod that names none; null without one. */
    String globalDefaultName() {
        return globalDefault;
    }

    private String computeGlobalDefault() {
        return classes.entrySet().stream().filter(e -> e.getValue().globalDefault())
                .min(Map.Entry.<String, Entry>comparingByValue(Comparator.comparingInt(Entry::value))
                        .thenComparing(Map.Entry.comparingByKey()))
                .map(Map.Entry::getKey).orElse(null);
    }

    private record Entry(int value, boolean globalDefault) {
    }
}
