package dev.muster.scheduler.core.placement;

import java.util.Arrays;

/**
 * The log of nodes a cycle's trials placed pods on or removed them from, in order. Each
 * {@link ShapeIndex} reads it from where it stopped, so it rescores only the nodes that changed since,
 * however many shapes a cycle sees.
 */
final class NodeChanges {
    private int[] log = new int[256];
    private int size;
    /** Per node index: the log length right after its latest change, 0 if it never changed. */
    private final int[] version;

    NodeChanges(int nodeCount) {
        this.version = new int[nodeCount];
    }

    void record(int node) {
        if (size == log.length) {
            log = Arrays.copyOf(log, size * 2);
        }
        log[size++] = node;
        version[node] = size;
    }

    /** Entries so far; also the version a change recorded now would get, minus one. */
    int size() {
        return size;
    }

    int nodeAt(int position) {
        return log[position];
    }

    /** Identifies the node's current state: it differs after every change of the node. */
    int version(int node) {
        return version[node];
    }
}
