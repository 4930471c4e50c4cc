package dev.muster.simulator;

/** Bad input in a trace or cluster file; the message names the file, line and column. */
public final class TraceFormatException extends RuntimeException {
    TraceFormatException(String file, int line, int column, String message) {
        super(file + ":" + line + ":" + column + ": " + message);
    }

    TraceFormatException(String file, String message) {
        super(file + ": " + message);
    }
}
