package dev.muster.cli;

import picocli.CommandLine.Command;

/** {@code muster resume job NAME}: clears {@code spec.suspend}, so that the Job runs again. */
@Command(name = "resume", description = "Resumes a suspended Job.")
final class ResumeCommand extends SuspendCommand {
    @Override
    boolean suspend() {
        return false;
    }
}
