/**
 * What the gang scheduler and the controllers agree on, in process: the scheduler's {@link
 * dev.muster.gang.GangVerdict verdict} on each gang, handed to the PodGroup controller (the only writer of
 * PodGroup status) through the {@link dev.muster.gang.GangVerdictBoard board}, and the {@link
 * dev.muster.gang.JobAdmissionRule rule} by which a Job's pods wait for its gang's admission, which the Job
 * controller and the scheduler both take from here so that they cannot disagree. Pure: plain data and the JDK.
 */
package dev.muster.gang;
