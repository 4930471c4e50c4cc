package dev.muster.api.scheduling.v1alpha1;

/** Phases of a {@link PodGroup} (seed {@code podgroup-status-enhancement.md}, plus Inqueue, Completed, Failed). */
public enum PodGroupPhase {
    Pending, Inqueue, Running, Unknown, Completed, Failed
}
