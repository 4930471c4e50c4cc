package dev.muster.scheduler;

/**
 * A gang that waits, as the scheduler's latest cycle left it: what an operator asks when a job does not
 * start ("where is it in the queue, and why does it wait?").
 *
 * @param namespace namespace of the PodGroup, or of the pod for a pod without one
 * @param name      the PodGroup's name, or the pod's
 * @param podGroup  whether this is a PodGroup's gang (false: a single pod without a PodGroup)
 * @param position  1 for the gang the next cycle tries first; gangs in backoff, which it does not try,
 *                  come last
 * @param state     why it waits, one CamelCase word: {@code Admitted} (room held while its pods are
 *                  created), {@code Reserved}, {@code NotEnoughResources}, {@code NotEnoughTasks},
 *                  {@code BackingOff}, {@code PodGroupNotFound}, {@code Scheduled} for a placed gang
 *                  with pods beyond its quorum still pending, or a queue's hold: {@code QueueNotFound},
 *                  {@code QueueNotLeaf}, {@code QueueForbidden}, {@code QueueClosed}, {@code QueueLimitReached},
 *                  {@code NamespaceQuotaExceeded}, {@code Preempting} (waiting for the pods
 *                  evicted for it to terminate)
 * @param message   the scheduler's explanation, as the PodGroup condition and pod events carry it
 * @param priority  the gang's priority
 * @param minMember the gang's quorum
 * @param pending   its pods that exist and wait for a node
 */
public record QueuedGang(String namespace, String name, boolean podGroup, int position, String state,
                         String message, int priority, int minMember, int pending) {
}
