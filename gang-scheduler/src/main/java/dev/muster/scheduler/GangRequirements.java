package dev.muster.scheduler;

import dev.muster.scheduler.core.model.GangTopology;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.model.SubGroupRule;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What a PodGroup requires of its gang, as {@link KubeObjects#gangRequirements} reads it.
 *
 * @param minMember         the quorum, at least 1 (see {@link dev.muster.api.scheduling.v1alpha1.PodGroupDefaults})
 * @param minTaskMember     each listed task's own minimum
 * @param priorityClassName the group's PriorityClass, if it names one
 * @param createdAt         when the PodGroup was created
 * @param scheduleTimeout   the group's own permit waiting time, if it sets one
 * @param ownerJobKey       the Job that controls the group as the scheduler's cache keys it ({@code namespace/name},
 *                          made once here rather than on each of the lookups every cycle makes), {@code null} for a
 *                          group of any other workload
 * @param topology          the group's {@code schedulingConstraints} topology, {@code null} if it sets none
 * @param queue             the Queue the gang is in, {@link dev.muster.scheduler.core.model.QueueInfo#DEFAULT} when
 *                          the group names none
 * @param maxRuntime        the group's {@code maxRuntime}, or without one its (unenforced) {@code runningEstimate};
 *                          {@code null} if it sets neither
 * @param scheduledAt       when the group's {@code Scheduled} condition last became True, {@code null} if it
 *                          is not; when the running gang's quorum was bound
 * @param evictions         how many times the gang was evicted whole ({@link PodEvictor#EVICTIONS_ANNOTATION})
 * @param minResources      the group's {@code minResources}, {@link ResourceVector#ZERO} if it sets none
 * @param subGroups         the group's {@code subGroupPolicy}, empty if it sets none
 */
record GangRequirements(int minMember, Map<String, Integer> minTaskMember, String priorityClassName,
                        Instant createdAt, Duration scheduleTimeout, String ownerJobKey, GangTopology topology,
                        String queue, Duration maxRuntime, Instant scheduledAt, int evictions,
                        ResourceVector minResources, List<SubGroupRule> subGroups) {
}
