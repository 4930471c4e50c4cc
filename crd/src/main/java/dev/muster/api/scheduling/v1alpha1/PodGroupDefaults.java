package dev.muster.api.scheduling.v1alpha1;

/** Effective values of optional PodGroup fields, the one place the scheduler and the controllers read them. */
public final class PodGroupDefaults {
    private PodGroupDefaults() {
    }

    /**
     * The gang's quorum: {@code spec.minMember}, and at least one pod. A group of 0 (as a Job with
     * {@code minAvailable: 0} asks for) is thus a group of pods placed as they fit, one at a time, and it runs
     * once one of them does; the scheduler and the PodGroup controller both read it so.
     */
    public static int minMember(PodGroupSpec spec) {
        Integer minMember = spec == null ? null : spec.getMinMember();
        return minMember == null ? 1 : Math.max(1, minMember);
    }
}
