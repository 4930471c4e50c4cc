package dev.muster.job.lifecycle;

/**
 * Events of the job lifecycle state machine: the actions a policy, {@code spec.suspend} or the
 * controller itself takes. {@code SyncJob} is the internal action of every reconcile that takes no other:
 * it moves a job along when the observed facts say so.
 */
public enum JobAction {
    AbortJob, RestartJob, RestartTask, RestartPod, RestartPartition, TerminateJob, CompleteJob, ResumeJob, SyncJob
}
