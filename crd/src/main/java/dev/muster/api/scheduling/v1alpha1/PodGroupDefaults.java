package dev.muster.api.scheduling.v1alpha1;

import java.util.Map;

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

    /**
     * The per-task minimums the gang must meet: {@code minTaskMember}, unless {@code minMember} is below
     * their sum, in which case none. This is Volcano's elastic rule (its scheduler's {@code JobInfo}
     * skips every task check when {@code MinAvailable < TaskMinAvailableTotal}): a group that asks for
     * fewer pods than its tasks' minimums add up to asks for any {@code minMember} of its pods.
     *
     * @param minMember     the gang's quorum, as {@link #minMember} reads it
     * @param minTaskMember each task's minimum, tasks without one left out
     */
    public static Map<String, Integer> enforcedMinTaskMember(int minMember, Map<String, Integer> minTaskMember) {
        int sum = minTaskMember.values().stream().mapToInt(Integer::intValue).sum();
        return minMember < sum ? Map.of() : minTaskMember;
    }
}
