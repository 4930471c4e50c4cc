/**
 * The Job controller's decisions, as functions of plain data: given a job, its pods, its PodGroup, its queues,
 * the pods the controller deleted and the time, {@link dev.muster.job.decision.JobStatusDecider} says the
 * status the job should have, the phase change, the pods to delete and when to look again
 * ({@link dev.muster.job.decision.JobDecision}). Its parts: how a job stands with admission
 * ({@link dev.muster.job.decision.AdmissionGate}), its queue ({@link dev.muster.job.decision.QueueGate}) and
 * {@code dependsOn} ({@code TaskGate}); the pods sorted and counted
 * ({@link dev.muster.job.decision.TaskStatusCounter}); the policies' events and their match
 * ({@code PolicyEventObserver}, {@code PolicyMatcher}); the
 * completion rule; which pods to delete ({@code PodCleanup}); the spec a running job
 * may change; and the children a job should have ({@link dev.muster.job.decision.PodGroupPlanner},
 * {@link dev.muster.job.decision.JobPodPlanner}, {@link dev.muster.job.decision.NetworkTopologyTiers}).
 *
 * <p>What they take: the {@code crd} model types ({@code Job}, {@code PodGroup}, {@code QueueSpec}) and fabric8's
 * model {@code Pod} ({@code io.fabric8.kubernetes.api.model}), the plain objects the informer cache holds, which
 * the decisions already took; copying them into types of their own would cost a copy per reconcile and
 * decide nothing better. (The {@code crd} types extend fabric8's {@code CustomResource}, which fabric8 keeps in its
 * client package; it is the one type of that package seen here.) Never used here: a Kubernetes client or informer ({@code io.fabric8.kubernetes.client}),
 * the I/O package {@code dev.muster.job}, Spring, a logger or a clock other than the instant passed in. Inputs
 * are never mutated (they are usually the cache's own objects). The phase machine they fire is
 * {@code dev.muster.job.lifecycle}; the plugins' objects come from {@code dev.muster.job.plugin}.
 */
package dev.muster.job.decision;
