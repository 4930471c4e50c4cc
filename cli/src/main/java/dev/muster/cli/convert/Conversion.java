package dev.muster.cli.convert;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/**
 * One input document as converted: the document to write (absent when it has no Muster counterpart), what
 * was changed, and what could not be carried and why. Built up by the converters in this package.
 */
public final class Conversion {
    private final String source;
    private ObjectNode result;
    private final List<String> changes = new ArrayList<>();
    private final List<String> notCarried = new ArrayList<>();

    Conversion(String source, ObjectNode result) {
        this.source = source;
        this.result = result;
    }

    /** Where the document came from, e.g. {@code job.yaml: document 2: Job default/mpi}. */
    public String source() {
        return source;
    }

    /** The converted document, or null when nothing is written for it (see {@link #notCarried()}). */
    public ObjectNode result() {
        return result;
    }

    /** Each change made, in words ({@code spec.capability -> spec.limit}). */
    public List<String> changes() {
        return List.copyOf(changes);
    }

    /** Each field or object that could not be carried, with why and what to do instead. */
    public List<String> notCarried() {
        return List.copyOf(notCarried);
    }

    void changed(String what) {
        changes.add(what);
    }

    void lost(String what) {
        notCarried.add(what);
    }

    void drop() {
        result = null;
    }
}
