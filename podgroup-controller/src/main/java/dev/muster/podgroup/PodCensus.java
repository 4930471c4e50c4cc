package dev.muster.podgroup;

import dev.muster.api.PodNode;
import dev.muster.api.PodPhase;
import dev.muster.api.PodPreemption;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.Collection;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The members of one PodGroup counted by what matters to the gang. Each pod is in exactly one bucket.
 * Pods that are being deleted are left out: they are leaving the group, and counting them would make
 * a restarted gang look whole until the old pods are gone. So are pods the scheduler marked as preemption
 * victims ({@link PodPreemption}), from the moment it marks them: a preempted gang is leaving as a whole, and
 * must come back Pending, to be admitted again, not look lost (Unknown) or failed while its pods go.
 *
 * @param waiting   not bound to a node yet: the scheduler still has to place them
 * @param starting  bound to a node, not running yet
 * @param running   phase Running
 * @param succeeded phase Succeeded
 * @param failed    phase Failed
 * @param lost      not finished, and no kubelet reports on them: phase Unknown, or bound to a node that
 *                  no longer exists (what the node lifecycle controller would mark lost; pods of a deleted
 *                  node otherwise keep their last phase)
 */
public record PodCensus(int waiting, int starting, int running, int succeeded, int failed, int lost) {

    /** A group without pods. */
    public static final PodCensus EMPTY = new PodCensus(0, 0, 0, 0, 0, 0);

    /**
     * Counts the given pods, which are assumed to belong to one group.
     *
     * @param nodeExists whether a Node of the given name exists
     */
    public static PodCensus of(Collection<Pod> pods, Predicate<String> nodeExists) {
        int waiting = 0;
        int starting = 0;
        int running = 0;
        int succeeded = 0;
        int failed = 0;
        int lost = 0;
        for (Pod pod : pods) {
            if (PodPhase.isTerminating(pod) || PodPreemption.isPreempted(pod)) {
                continue;
            }
            PodPhase phase = PodPhase.of(pod);
            Optional<String> node = PodNode.of(pod);
            if (!phase.isFinished() && node.filter(name -> !nodeExists.test(name)).isPresent()) {
                lost++;
                continue;
            }
            switch (phase) {
                case Running -> running++;
                case Succeeded -> succeeded++;
                case Failed -> failed++;
                case Unknown -> lost++;
                case Pending -> {
                    if (node.isPresent()) {
                        starting++;
                    } else {
                        waiting++;
                    }
                }
            }
        }
        return new PodCensus(waiting, starting, running, succeeded, failed, lost);
    }

    /** Pods in the group. */
    public int total() {
        return waiting + starting + running + succeeded + failed + lost;
    }

    /** Pods that reached Succeeded or Failed. */
    public int finished() {
        return succeeded + failed;
    }

    /** Pods that run or ran to success: what counts towards a running gang. */
    public int runningOrSucceeded() {
        return running + succeeded;
    }

    /** Pods that hold or held a place on a node and have not failed. */
    public int placed() {
        return starting + running + succeeded;
    }
}
