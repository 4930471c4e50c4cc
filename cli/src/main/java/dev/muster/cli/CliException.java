package dev.muster.cli;

/** A failure the command reports as one line, {@code error: MESSAGE}, with exit code 1. */
final class CliException extends RuntimeException {
    CliException(String message) {
        super(message);
    }

    /** The error for a missing object, e.g. {@code job default/train not found}. */
    static CliException notFound(String kind, String namespace, String name) {
        return new CliException(kind + " " + namespace + "/" + name + " not found");
    }
}
