package dev.muster.manager.leadership;

/**
 * Ends the process. Behind an interface so that tests running several managers in one JVM can see that a
 * manager would exit without the JVM going away.
 */
@FunctionalInterface
public interface Exiter {

    /** Shuts the application down and ends the process with {@code code}; may return before it has. */
    void exit(int code);
}
