package dev.muster.local.manifest;

import java.util.List;

/** The files given to {@code ./muster local} cannot be applied; every problem is listed, by file and document. */
public final class ManifestException extends Exception {
    private final List<String> problems;

    public ManifestException(List<String> problems) {
        super(String.join("\n", problems));
        this.problems = List.copyOf(problems);
    }

    /** Each problem as {@code file: document N: what is wrong}. */
    public List<String> problems() {
        return problems;
    }
}
