package dev.muster.simulator;

import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PodInfo;

import java.util.List;

/** A job as one simulation run tracks it: its pods, where they are placed, and when it started. */
final class SimJob {
    final TraceJob job;
    final int vc;
    final List<PodInfo> pods;
    /** The job's gang: all its pods, every one needed at once. */
    final PendingGang gang;
    /** Per pod, the pod as a gang of one, when each pod is placed on its own; else {@code null}. */
    final PendingGang[] podGangs;
    /** Per pod: its node, {@code null} while pending. */
    final String[] nodeOf;
    final long gpus;
    int placed;
    /** When the last of its pods was placed, in epoch milliseconds; -1 until then, and again once evicted. */
    long start = -1;
    /** How many times it was evicted (preempted whole) and went back to waiting. */
    int evictions;

    SimJob(TraceJob job, int vc, List<PodInfo> pods, boolean perPod, String queue) {
        this.job = job;
        this.vc = vc;
        this.pods = pods;
        this.gang = CoreRecords.gang(job, pods, queue);
        this.podGangs = perPod ? pods.stream().map(pod -> CoreRecords.standalone(job, pod)).toArray(PendingGang[]::new)
                : null;
        this.nodeOf = new String[pods.size()];
        this.gpus = job.gpus();
    }

    /** The index of one of the job's pods. */
    int indexOf(PodInfo pod) {
        for (int i = 0; i < pods.size(); i++) {
            if (pods.get(i) == pod || pods.get(i).name().equals(pod.name())) {
                return i;
            }
        }
        throw new IllegalArgumentException(pod + " is not a pod of job " + job.id());
    }
}
