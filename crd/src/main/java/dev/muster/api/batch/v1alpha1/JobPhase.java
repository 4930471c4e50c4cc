package dev.muster.api.batch.v1alpha1;

/** Phases of a {@link Job}, as in Volcano's vcjob. */
public enum JobPhase {
    Pending, Running, Restarting, Completing, Completed, Aborting, Aborted, Terminating, Terminated, Failed;

    /** Whether the job has finished and will not run again by itself. */
    public boolean isFinished() {
        return this == Completed || this == Failed || this == Terminated || this == Aborted;
    }
}
