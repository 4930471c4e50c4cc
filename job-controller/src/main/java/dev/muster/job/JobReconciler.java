package dev.muster.job;

import dev.muster.job.decision.Admission;
import dev.muster.job.decision.AdmissionGate;
import dev.muster.job.decision.JobDecision;
import dev.muster.job.decision.JobStatusDecider;
import dev.muster.job.decision.PodPriorityClasses;
import dev.muster.job.decision.NetworkTopologyTiers;
import dev.muster.job.decision.QueueGate;
import dev.muster.job.lifecycle.PhaseTransition;
import dev.muster.job.lifecycle.Verdict;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.scheduling.v1alpha1.QueueAccess;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.batch.v1alpha1.JobStatus;
import dev.muster.api.batch.v1alpha1.validation.FieldError;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.job.plugin.VolumesPlugin;
import dev.muster.support.controller.ObjectKey;
import dev.muster.support.controller.ReconcileResult;
import dev.muster.support.controller.Reconciler;
import dev.muster.support.event.EventRecorder;
import dev.muster.support.status.FirstWriteWait;
import dev.muster.support.status.StatusRecorder;
import dev.muster.support.autoscaling.ProvisioningConsumption;
import io.fabric8.kubernetes.api.model.Pod;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.OptionalInt;
import java.util.function.BooleanSupplier;

/**
 * Reconciles one Job: reads it, its pods and its PodGroup from the cache, lets {@link JobStatusDecider}
 * decide, hands the status and the Event of a phase change to the {@link StatusRecorder}, which writes it
 * only when it changed, then makes the children match: deletes what the decision
 * says, and creates the PodGroup before the pods, so the gang is known before its first member. The pods
 * of a job the {@link AdmissionGate} holds back wait until the scheduler has admitted its PodGroup.
 */
final class JobReconciler implements Reconciler {
    private static final Logger log = LoggerFactory.getLogger(JobReconciler.class);
    private static final Duration WAIT_FOR_SYNC = Duration.ofMillis(200);
    /** A backstop: the informer's event for the newer job wakes the reconcile anyway. */
    private static final Duration STALE_CACHE_RETRY = Duration.ofMillis(200);
    /** Timestamps are whole seconds; waking a little after a deadline avoids waking just before it. */
    private static final Duration WAKE_UP_SLACK = Duration.ofMillis(50);
    /** How long a job never written waits for its PodGroup's admission before its first write, from when first seen. */
    static final Duration FIRST_WRITE_WAIT = Duration.ofSeconds(1);
    /** Reason of the Warning on a job whose PodGroup cannot be scheduled, as Volcano's job controller names it. */
    static final String POD_GROUP_PENDING = "PodGroupPending";

    private final JobCache cache;
    private final JobStatusDecider decider;
    private final AdmissionGate gate;
    private final JobResourceWriter children;
    private final StatusRecorder<JobStatus> recorder;
    private final Clock clock;
    private final DeletedPods deleted = new DeletedPods();
    private final FirstWriteWait firstWrites = new FirstWriteWait(FIRST_WRITE_WAIT);
    private final ReconcileFailureRecorder failures;
    private final NetworkTopologyTiers tiers;
    private final PodTemplateDryRun templates;

    JobReconciler(JobCache cache, JobStatusDecider decider, AdmissionGate gate, JobResourceWriter children,
                  StatusRecorder<JobStatus> recorder, ReconcileFailureRecorder failures, NetworkTopologyTiers tiers,
                  PodTemplateDryRun templates, Clock clock) {
        this.cache = cache;
        this.templates = templates;
        this.decider = decider;
        this.gate = gate;
        this.children = children;
        this.recorder = recorder;
        this.failures = failures;
        this.tiers = tiers;
        this.clock = clock;
    }

    @Override
    public void failing(ObjectKey key, Throwable failure, int attempts) {
        failures.record(key, failure);
    }

    @Override
    public ReconcileResult reconcile(ObjectKey key) {
        if (!cache.hasSynced()) {
            return ReconcileResult.after(WAIT_FOR_SYNC);
        }
        Optional<Job> found = cache.job(key);
        if (found.isEmpty() || found.get().getMetadata().getDeletionTimestamp() != null) {
            // Children carry an ownerReference to the job; garbage collection removes them, in the foreground, in
            // the background or (propagationPolicy Orphan) not at all, as whoever deleted the job asked.
            log.debug("job {}: gone or being deleted", key);
            deleted.forget(key);
            recorder.forget(key);
            firstWrites.forget(key);
            templates.forget(key);
            return ReconcileResult.done();
        }
        Job job = found.get();
        // Before the pods: a creation seen after this is among the pods read next (CreatedPods).
        Set<String> unseen = children.unseenCreations(job);
        List<Pod> pods = cache.podsOf(job);
        Instant now = clock.instant();
        Optional<PodGroup> group = cache.podGroupOf(job);
        Admission admission = gate.check(job, group);
        // What the pods need that does not exist yet: the API server would refuse them.
        List<String> missing = new ArrayList<>(VolumesPlugin.missingClaims(job, claim -> cache.claimExists(job, claim)));
        // A job not yet started waits for its class; a running one's new pods are refused loudly (FailedCreatePod).
        if (notRunYet(job)) {
            missing.addAll(PodPriorityClasses.missing(job, cache::priorityClassExists));
        }
        Optional<Verdict> queueHold = QueueGate.hold(job, cache.queueSpecs(), cache.namespaceLabels(job.getMetadata().getNamespace()));
        // Pods that would be refused for what is missing need no dry run to say so.
        List<FieldError> refusedFields = notStarted(job, pods) && missing.isEmpty() ? templates.refusals(job) : List.of();
        JobDecision decision = decider.decide(job, pods, group, deleted.stillCached(key, pods), admission,
                missing, queueHold, refusedFields, now);
        // A job that finishes with a TTL already run out (ttlSecondsAfterFinished: 0) has its finished status
        // written first: the delete is checked against the API server's copy, which must show it finished.
        if (decision.expired() && JobStatusDecider.ttlExpiry(job, job.getStatus()).filter(e -> !now.isBefore(e)).isPresent()) {
            if (!children.deleteExpiredJob(job, now)) {
                // The cache catches up with the copy that was not due, and decides again.
                return ReconcileResult.after(STALE_CACHE_RETRY);
            }
            log.info("job {}: {} for longer than ttlSecondsAfterFinished; deleted it", key, decision.phase());
            return ReconcileResult.done();
        }
        // Status first: it is written with the resourceVersion the decision was based on, so a decision
        // made on a stale cache loses the conflict before it deletes or creates anything. A change of counts
        // alone may wait for the pacer, unless pods are to be deleted; the decision then does nothing else
        // either, since a stale one could create again the pods of a version that a fresher one has just stopped.
        List<StatusRecorder.Event> announced = new ArrayList<>(decision.transition().map(t -> event(t, decision.queueHold())).stream().toList());
        podGroupPending(job, decision, admission).ifPresent(announced::add);
        Optional<StatusRecorder.Event> notHonoured = FieldsNotHonoured.apply(job, decision.status(), tiers, now);
        notHonoured.ifPresent(announced::add);
        // While a new job's first write waits, only its PodGroup is made: nothing is deleted (the decision names
        // nothing) and no pod created (admission allows none), so nothing relies on the write's conflict check.
        Optional<Duration> admissionWait = firstWrites.left(key, mayWaitForAdmission(job, decision, admission, missing), now);
        StatusRecorder.Outcome outcome = admissionWait.isPresent() ? new StatusRecorder.Outcome(false, Optional.empty())
                : recorder.record(job, new StatusRecorder.Update<>(decision.status(), announced,
                        !decision.podsToDelete().isEmpty()), now);
        if (outcome.heldBack().isPresent()) {
            log.debug("job {}: only pod counts changed; status write held back {}", key, outcome.heldBack().get());
            return ReconcileResult.after(outcome.heldBack().get());
        }
        boolean written = outcome.written();
        if (written && notHonoured.isPresent()) {
            log.info("job {}: {}", key, notHonoured.get().message());
        }
        // A decision that wrote nothing was not checked against the job as it is: its cache may lag behind
        // the pods' (its own last write not seen yet), and a decision on an older version of the job could
        // delete the pods of the version after it, or create again pods of a version just stopped. Before
        // either, the job is read once from the API server.
        CacheCheck current = new CacheCheck(written, () -> children.isCurrent(job));
        if (!decision.podsToDelete().isEmpty() && !current.confirmed()) {
            log.debug("job {}: cached at rv {}, older than the API server's; deciding again before deleting pods",
                    key, job.getMetadata().getResourceVersion());
            return ReconcileResult.after(STALE_CACHE_RETRY);
        }
        int stopped = 0;
        for (Pod pod : decision.podsToDelete()) {
            // Recorded one by one, so that a failure part-way leaves no deleted pod unrecorded.
            if (children.deletePod(pod)) {
                deleted.add(key, List.of(pod));
                stopped++;
            }
        }
        int created = 0;
        if (decision.runsPods()) {
            // Before any pod: a pod's first lookup of its peers must find the Service and the host lists.
            children.ensurePluginObjects(job, object -> cache.pluginObject(job, object));
            // Without its claims, or refused by its queue, no pod could start: a new gang is not even proposed, so
            // it holds no room. A gang whose queue is Closed is proposed, so that it keeps its place for when the
            // queue opens (QueueRefusal.keepsPlace).
            boolean queueRefuses = decision.queueHold().filter(h -> !QueueAccess.CLOSED.equals(h.reason())).isPresent();
            if (missing.isEmpty() && !queueRefuses || group.isPresent()) {
                children.ensurePodGroup(job, decision.openTasks(), group);
            }
            // A gang preempted just now waits for the scheduler to admit it again, as the next decisions will
            // find; the admission above was judged on the job as it ran.
            Admission forPods = decision.preempted() ? gate.check(withStatus(job, decision.status()), group) : admission;
            if (missing.isEmpty() && forPods.allowsPods() && decision.queueHold().isEmpty()) {
                OptionalInt made = children.createMissingPods(job, decision.status().getVersion(), pods, unseen,
                        decision.openTasks(), ProvisioningConsumption.podAnnotations(group.orElse(null)),
                        current::confirmed);
                if (made.isEmpty()) {
                    log.debug("job {}: cached at rv {}, older than the API server's; deciding again before creating "
                            + "pods", key, job.getMetadata().getResourceVersion());
                    return ReconcileResult.after(STALE_CACHE_RETRY);
                }
                created = made.getAsInt();
            }
        }
        logDecision(key, decision, written, created, stopped,
                queueNote(job, decision, written) + admissionNote(job, pods, decision, admission, written, created));
        ReconcileResult next = decision.wakeAt()
                .map(at -> ReconcileResult.after(Duration.between(now, at).plus(WAKE_UP_SLACK)))
                .orElse(ReconcileResult.done());
        // A pod created and never seen by the cache (deleted before it was) is made again once its creation expires.
        ReconcileResult andUnseen = children.unseenCreationsExpireAt(job)
                .map(at -> next.sooner(ReconcileResult.after(Duration.between(now, at).plus(WAKE_UP_SLACK))))
                .orElse(next);
        return admissionWait.map(wait -> andUnseen.sooner(ReconcileResult.after(wait))).orElse(andUnseen);
    }

    /** Whether the job has not run yet: new, or Pending. */
    private static boolean notRunYet(Job job) {
        return job.getStatus() == null || job.getStatus().getState() == null
                || job.getStatus().getState().getPhase() == null || job.getStatus().getState().getPhase() == JobPhase.Pending;
    }

    /**
     * Whether the job is new or Pending with no pods: until its first pods are made, the API server is asked whether
     * it would make them ({@link PodTemplateDryRun}). A job with pods was asked before them, and its template cannot
     * change since.
     */
    private static boolean notStarted(Job job, List<Pod> pods) {
        return pods.isEmpty() && notRunYet(job);
    }

    /**
     * Whether a new job's first status write may wait for its PodGroup's admission. The scheduler admits a
     * gang that fits milliseconds after its PodGroup appears, so a job written at once is written
     * {@code Pending}, "waiting for scheduler muster to admit", and again, "admitted", as soon as the group
     * is. The PodGroup is still created at once; its admission reconciles the job again, whose first write
     * then says it was admitted. A job not admitted within {@link #FIRST_WRITE_WAIT} is written then, as
     * before. Only a job that waits for nothing but admission waits: one held by its queue or its claims, or
     * told by the scheduler why it cannot fit, is written at once.
     */
    static boolean mayWaitForAdmission(Job job, JobDecision decision, Admission admission, List<String> missing) {
        return job.getStatus() == null && decision.phase() == JobPhase.Pending
                && admission.stage() == Admission.Stage.WAITING && admission.unschedulable() == null
                && decision.podsToDelete().isEmpty() && decision.queueHold().isEmpty() && missing.isEmpty();
    }

    /** Whether the cached job is the job as it is: known when this reconcile wrote its status, else read once. */
    private static final class CacheCheck {
        private final BooleanSupplier read;
        private Boolean confirmed;

        CacheCheck(boolean written, BooleanSupplier read) {
            this.read = read;
            this.confirmed = written ? Boolean.TRUE : null;
        }

        boolean confirmed() {
            if (confirmed == null) {
                confirmed = read.getAsBoolean();
            }
            return confirmed;
        }
    }

    /** The job with the status just decided, for judging what the decision leads to. */
    private static Job withStatus(Job job, JobStatus status) {
        Job decided = new Job();
        decided.setMetadata(job.getMetadata());
        decided.setSpec(job.getSpec());
        decided.setStatus(status);
        return decided;
    }

    /**
     * The Event announcing a phase change. A failure, a restart and a policy stopping the job are warnings;
     * suspending and resuming are the user's doing. A job that becomes Pending while its queue refuses it
     * (missing, closed, or not open to its namespace) is told so, as a warning, since the status says that
     * and not the transition's own reason.
     */
    private static StatusRecorder.Event event(PhaseTransition t, Optional<Verdict> queueHold) {
        if (t.to() == JobPhase.Pending && queueHold.isPresent()) {
            return new StatusRecorder.Event(EventRecorder.WARNING, queueHold.get().reason(),
                    t.describe() + ": " + queueHold.get().message());
        }
        boolean stoppedByPolicy = (t.to() == JobPhase.Aborting || t.to() == JobPhase.Terminating)
                && !JobStatusDecider.SUSPENDED.equals(t.verdict().reason());
        boolean bad = t.to() == JobPhase.Failed || t.effect().consumesRetry() || stoppedByPolicy;
        return new StatusRecorder.Event(bad ? EventRecorder.WARNING : EventRecorder.NORMAL,
                t.verdict().reason(), t.describe() + ": " + t.verdict().message());
    }

    /**
     * Volcano's {@code PodGroupPending} Warning on the job, so that {@code kubectl describe} of the job, not only of
     * its PodGroup, says why it waits: when a Pending job's status starts to carry its PodGroup's
     * {@code Unschedulable} message, or a new one. Tied to a change of the status message, so a gang that waits
     * for many cycles with the same reason is told once.
     */
    private static Optional<StatusRecorder.Event> podGroupPending(Job job, JobDecision decision, Admission admission) {
        if (admission.unschedulable() == null || decision.phase() != JobPhase.Pending) {
            return Optional.empty();
        }
        if (!changesMessage(job, decision)) {
            return Optional.empty();
        }
        return Optional.of(new StatusRecorder.Event(EventRecorder.WARNING, POD_GROUP_PENDING,
                "PodGroup " + admission.podGroup() + " is unschedulable: " + admission.unschedulable()));
    }

    /** Whether the decided status's message differs from the one the job has now (none counts as one). */
    private static boolean changesMessage(Job job, JobDecision decision) {
        String before = job.getStatus() == null || job.getStatus().getState() == null ? null
                : job.getStatus().getState().getMessage();
        return !Objects.equals(before, decision.status().getState().getMessage());
    }

    /**
     * What the log should say about admission in this decision, ending in "; ", or nothing: that the job
     * (newly, or for a new reason) waits for the scheduler, or that its first pods were created after it
     * was admitted. A gated job reconciled again with nothing new says nothing.
     */
    private static String admissionNote(Job job, List<Pod> pods, JobDecision decision, Admission admission,
                                        boolean written, int created) {
        boolean newlyWaiting = !admission.allowsPods() && written && changesMessage(job, decision);
        boolean firstPods = admission.gated() && created > 0 && pods.isEmpty();
        return newlyWaiting || firstPods ? admission.describe() + "; " : "";
    }

    /**
     * What the log should say about the job's queue in this decision, ending in "; ", or nothing: that the
     * queue now holds the job (QueueAccess's reasons), or that it no longer does.
     */
    private static String queueNote(Job job, JobDecision decision, boolean written) {
        String before = job.getStatus() == null || job.getStatus().getState() == null ? null
                : job.getStatus().getState().getReason();
        String now = decision.status().getState().getReason();
        if (!written || Objects.equals(before, now)) {
            return "";
        }
        if (decision.queueHold().isPresent()) {
            return decision.queueHold().get().reason() + ": " + decision.queueHold().get().message() + "; ";
        }
        return QueueGate.isHold(before) ? "queue " + QueueGate.queueOf(job) + " lets the job start; " : "";
    }

    private static void logDecision(ObjectKey key, JobDecision decision, boolean written, int created, int stopped,
                                    String note) {
        var status = decision.status();
        String counts = "pending=" + status.getPending() + " running=" + status.getRunning()
                + " succeeded=" + status.getSucceeded() + " failed=" + status.getFailed()
                + " terminating=" + status.getTerminating();
        if (decision.transition().isPresent() && written) {
            PhaseTransition t = decision.transition().get();
            log.info("job {}: {} ({}: {}); {}created {} pods, stopped {}; {}", key, t.describe(),
                    t.verdict().reason(), t.verdict().message(), note, created, stopped, counts);
        } else if (created > 0 || stopped > 0 || !note.isEmpty()) {
            log.info("job {}: {}; {}created {} pods, stopped {}; {}", key, decision.phase(), note,
                    created, stopped, counts);
        } else {
            log.debug("job {}: {}; status {}; {}", key, decision.phase(), written ? "written" : "unchanged", counts);
        }
    }
}
