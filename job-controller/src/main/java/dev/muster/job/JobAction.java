package dev.muster.job;

/**
 * Events of the job lifecycle state machine. {@code SyncJob} is the internal action of every reconcile:
 * it moves a job along when the observed facts say so.
 */
public enum JobAction {
    SyncJob
}
