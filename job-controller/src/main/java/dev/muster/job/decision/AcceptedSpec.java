package dev.muster.job.decision;

import dev.muster.job.lifecycle.JobFacts;
import dev.muster.job.lifecycle.Verdict;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.batch.v1alpha1.SpecFingerprint;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The spec a job was accepted with, and whether a later change to it is refused. There is no admission
 * webhook, so the controller cannot turn an update away; a change to anything but the scaling fields,
 * {@code suspend} and the TTL fails a live job with InvalidSpec naming every changed field, rather than
 * running pods of two specs in one gang. A suspended job may change freely and resumes with its new spec. Comparing is skipped while {@code metadata.generation} (bumped
 * by the API server on every spec change) is the one already compared.
 *
 * @param fingerprints what {@code status.acceptedSpec} should hold
 * @param generation   what {@code status.acceptedGeneration} should hold
 * @param refusal      why the change is refused, if it is
 */
record AcceptedSpec(Map<String, String> fingerprints, Long generation, Optional<Verdict> refusal) {

    static AcceptedSpec check(Job job, JobStatus current, JobPhase phase) {
        Long generation = job.getMetadata().getGeneration();
        if (current == null || current.getAcceptedSpec() == null) {
            return new AcceptedSpec(SpecFingerprint.of(job.getSpec()), generation, Optional.empty());
        }
        if (suspended(current, phase)) {
            // As with batch/v1 (KEP-2926), a suspended job has no pods, so its spec may change before it
            // resumes: a queueing system such as Kueue sets node selectors in the templates on admission.
            return new AcceptedSpec(SpecFingerprint.of(job.getSpec()), generation, Optional.empty());
        }
        Map<String, String> accepted = current.getAcceptedSpec();
        if ((generation != null && Objects.equals(generation, current.getAcceptedGeneration())) || phase.isFinished()) {
            return new AcceptedSpec(accepted, generation, Optional.empty());
        }
        Map<String, String> now = SpecFingerprint.of(job.getSpec());
        List<String> changed = SpecFingerprint.changed(accepted, now);
        if (changed.isEmpty()) {
            return new AcceptedSpec(now, generation, Optional.empty());
        }
        return new AcceptedSpec(accepted, generation, Optional.of(new Verdict(JobFacts.INVALID_SPEC, changed.stream()
                .map(path -> path + ": cannot change on a live job; only " + SpecFingerprint.MUTABLE + " can")
                .collect(Collectors.joining("; ")))));
    }

    private static boolean suspended(JobStatus current, JobPhase phase) {
        return (phase == JobPhase.Aborting || phase == JobPhase.Aborted) && current.getState() != null
                && JobStatusDecider.SUSPENDED.equals(current.getState().getReason());
    }
}
