package dev.muster.simulator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What every policy of one run replays: the jobs, the cluster, and how jobs become pods.
 *
 * @param jobs         the jobs, by submission time
 * @param cluster      the nodes
 * @param gpusPerPod   GPUs per pod: the cluster's GPUs per node, or 1 for one-GPU pods
 * @param vcs          the virtual clusters: the cluster's, then any other the trace names, in order of appearance
 * @param samplePeriod virtual time between two points of the charts' time series
 * @param partitioned  whether a job may only use the nodes of its own virtual cluster (a nodeSelector on
 *                     {@link SimCluster#VC_LABEL}), as in Philly and in the Helios simulator; otherwise
 *                     all jobs share all nodes
 */
public record SimInput(List<TraceJob> jobs, SimCluster cluster, int gpusPerPod, List<String> vcs,
                       Duration samplePeriod, boolean partitioned) {
    /** Charts get about this many points over the trace's submission span. */
    static final int SAMPLES = 1000;

    public SimInput {
        jobs = List.copyOf(jobs);
        vcs = List.copyOf(vcs);
        if (jobs.isEmpty()) {
            throw new IllegalArgumentException("the trace has no jobs");
        }
    }

    /**
     * The input for a trace and cluster; pods of the cluster's GPUs per node, or of one GPU each, and a sample
     * period of a thousandth of the submission span (at least a minute).
     *
     * @param partitioned whether each job may only use its virtual cluster's nodes
     */
    public static SimInput of(List<TraceJob> jobs, SimCluster cluster, boolean oneGpuPods, boolean partitioned) {
        Set<String> vcs = new LinkedHashSet<>(cluster.vcNodes().keySet());
        jobs.forEach(job -> vcs.add(job.vc()));
        long span = jobs.isEmpty() ? 0
                : Duration.between(jobs.get(0).submit(), jobs.get(jobs.size() - 1).submit()).toMillis();
        Duration sample = Duration.ofMinutes(Math.max(1, span / SAMPLES / 60_000));
        return new SimInput(jobs, cluster, oneGpuPods ? 1 : cluster.gpusPerNode(), new ArrayList<>(vcs), sample,
                partitioned);
    }

    /** How a policy treats the teams: as its {@code vcs} setting says, else as {@link #partitioned()} says. */
    PolicySpec.Teams teams(PolicySpec spec) {
        if (spec.teams() != null) {
            return spec.teams();
        }
        return partitioned ? PolicySpec.Teams.PARTITION : PolicySpec.Teams.SHARED;
    }

    /** The nodeSelector of a job's pods: its virtual cluster's nodes when partitioned, else none. */
    static Map<String, String> nodeSelector(TraceJob job, PolicySpec.Teams teams) {
        return teams == PolicySpec.Teams.PARTITION ? Map.of(SimCluster.VC_LABEL, job.vc()) : Map.of();
    }

    /** The index of a virtual cluster in {@link #vcs()}. */
    int vcIndex(String vc) {
        return vcs.indexOf(vc);
    }
}
