/**
 * The Job lifecycle: how a job moves between the phases of Volcano's vcjob. {@link dev.muster.job.lifecycle.JobLifecycle#TRANSITIONS}
 * is the one definition (phase, action, guard over {@link dev.muster.job.lifecycle.JobFacts}) → phase and
 * {@link dev.muster.job.lifecycle.Effect}; {@code docs/job-lifecycle.md} shows it as a table generated from it.
 * The rest is its vocabulary: actions, facts, verdicts, triggers, retries, the completion rule's conclusion.
 *
 * <p>A pure decision: (phase, action, facts) → the transition taken, if any. The definition is executed by
 * Spring StateMachine, through {@code controller-support}'s {@link dev.muster.support.statemachine.TransitionTable}
 * (the one place that builds machines from a table of rows); this package names no Spring type itself, and
 * uses neither {@code dev.muster.job.decision}, which fires it, nor the I/O package {@code dev.muster.job}
 * ({@code JobControllerArchitectureTest} checks it).
 */
package dev.muster.job.lifecycle;
