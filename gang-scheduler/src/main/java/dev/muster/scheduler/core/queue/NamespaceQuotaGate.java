package dev.muster.scheduler.core.queue;

import dev.muster.scheduler.core.model.NamespaceQuota;
import dev.muster.scheduler.core.model.PendingGang;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.QuotaFacts;
import dev.muster.scheduler.core.model.ResourceVector;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Volcano's {@code resourcequota} enqueue check, for the gangs whose pods a workload creates once they are admitted
 * (a Muster Job's): such a gang is not admitted while the pods of its quorum would take its namespace above a
 * ResourceQuota, because the API server would refuse them one by one at creation ({@code exceeded quota}), and the
 * admitted gang would wait for pods that cannot exist. Gangs whose pods exist already passed the API server's quota
 * when they were created, so they are never held here.
 *
 * <p>One gate per cycle: what it admits counts against the namespace's quotas for the gangs tried after it, as the
 * API server raises a quota's {@code used} at each creation, so that two gangs of one namespace cannot both be
 * admitted into room only one has. So do, from the start of the cycle, the quorum pods that gangs admitted before
 * still have to create: a large gang's pods are created over seconds, and a quota's {@code used} counts only those
 * created so far. A quota with scopes counts only the quorum pods its scopes select (a quota on the pods of priority
 * class {@code high}, on those with a deadline).
 */
public final class NamespaceQuotaGate {
    private final Map<String, List<NamespaceQuota>> quotas;
    /** Per pod still to be created, what quotas read of it beyond its requests. */
    private final Map<String, QuotaFacts> podFacts;
    /** Per quota ({@code namespace/name}), what the gangs admitted this cycle will ask of it once their pods exist. */
    private final Map<String, Map<String, Long>> admitted = new HashMap<>();

    /**
     * @param quotas   per namespace, its quotas
     * @param podFacts per pod still to be created ({@code namespace/name}), its limits and what quotas' scopes select
     *                 it by; a pod not named counts no limits and only for quotas without scopes
     * @param gangs    the cycle's gangs: those whose workload is creating their pods count what their quorum still
     *                 lacks
     */
    public NamespaceQuotaGate(Map<String, List<NamespaceQuota>> quotas, Map<String, QuotaFacts> podFacts,
                              Collection<PendingGang> gangs) {
        this.quotas = quotas;
        this.podFacts = podFacts;
        for (PendingGang gang : gangs) {
            if (!gang.waitsForAdmission() && !gang.expected().isEmpty()) {
                count(gang);
            }
        }
    }

    /**
     * Why the gang may not be admitted yet, in the API server's words for the quota it would exceed; {@code null}
     * when it may: its pods exist already, its namespace has no quota, or its quorum fits every quota.
     */
    public String exceededBy(PendingGang gang) {
        if (!gang.waitsForAdmission()) {
            return null;
        }
        List<NamespaceQuota> limits = quotas.getOrDefault(gang.gang().key().namespace(), List.of());
        if (limits.isEmpty()) {
            return null;
        }
        List<PodInfo> quorum = quorum(gang);
        for (NamespaceQuota quota : limits) {
            Map<String, Long> asked = demand(quorum, quota, podFacts);
            Map<String, Long> before = admitted.getOrDefault(key(quota), Map.of());
            Map<String, Long> requested = new TreeMap<>();
            Map<String, Long> used = new TreeMap<>();
            Map<String, Long> limited = new TreeMap<>();
            quota.hard().forEach((resource, hard) -> {
                long ask = asked.getOrDefault(resource, 0L);
                long inUse = quota.used().getOrDefault(resource, 0L) + before.getOrDefault(resource, 0L);
                if (ask > 0 && inUse + ask > hard) {
                    requested.put(resource, ask);
                    used.put(resource, inUse);
                    limited.put(resource, hard);
                }
            });
            if (!requested.isEmpty()) {
                return "the pods of its quorum would exceed its namespace's quota, and the API server would refuse "
                        + "them (exceeded quota: " + quota.name() + ", requested: " + amounts(requested) + ", used: "
                        + amounts(used) + ", limited: " + amounts(limited) + "); it is admitted once the namespace's "
                        + "pods leave room";
            }
        }
        return null;
    }

    /** Counts the admitted gang's quorum against its namespace's quotas for the rest of the cycle. */
    public void admitted(PendingGang gang) {
        if (gang.waitsForAdmission()) {
            count(gang);
        }
    }

    private void count(PendingGang gang) {
        List<NamespaceQuota> ofNamespace = quotas.getOrDefault(gang.gang().key().namespace(), List.of());
        if (ofNamespace.isEmpty()) {
            return;
        }
        List<PodInfo> quorum = quorum(gang);
        for (NamespaceQuota quota : ofNamespace) {
            Map<String, Long> tally = admitted.computeIfAbsent(key(quota), q -> new HashMap<>());
            demand(quorum, quota, podFacts).forEach((resource, amount) -> tally.merge(resource, amount, Long::sum));
        }
    }

    private static String key(NamespaceQuota quota) {
        return quota.namespace() + "/" + quota.name();
    }

    /**
     * The pods the gang's quorum still lacks, and its workload has yet to create: each task's minimum first, then the
     * others in the order the workload creates them, up to {@code minMember}; its bound pods and those created and
     * pending count toward both, as they count in the quota's {@code used} already. The pods beyond the quorum are
     * the workload's to create as the quota allows, as an elastic job's are.
     */
    static List<PodInfo> quorum(PendingGang gang) {
        int needed = Math.max(0, gang.gang().minMember() - gang.bound() - gang.pending().size());
        Map<String, Integer> created = new HashMap<>();
        gang.pending().forEach(pod -> created.merge(pod.task(), 1, Integer::sum));
        Map<String, Integer> neededByTask = new HashMap<>();
        gang.gang().minTaskMember().forEach((task, min) -> neededByTask.put(task,
                Math.max(0, min - gang.boundOf(task) - created.getOrDefault(task, 0))));
        List<PodInfo> quorum = new ArrayList<>();
        List<PodInfo> rest = new ArrayList<>();
        for (PodInfo pod : gang.expected()) {
            int forTask = neededByTask.getOrDefault(pod.task(), 0);
            if (forTask > 0) {
                neededByTask.put(pod.task(), forTask - 1);
                quorum.add(pod);
            } else {
                rest.add(pod);
            }
        }
        for (int i = 0; i < rest.size() && quorum.size() < needed; i++) {
            quorum.add(rest.get(i));
        }
        return quorum;
    }

    /**
     * What the pods ask of the quota: the requests, limits ({@code limits.*}) and pod counts of those its scopes
     * select.
     */
    static Map<String, Long> demand(List<PodInfo> pods, NamespaceQuota quota, Map<String, QuotaFacts> podFacts) {
        Map<String, Long> demand = new HashMap<>();
        long counted = 0;
        for (PodInfo pod : pods) {
            QuotaFacts facts = podFacts.get(pod.namespace() + "/" + pod.name());
            if (!quota.selects(facts)) {
                continue;
            }
            counted++;
            pod.requests().asMap().forEach((resource, amount) -> demand.merge(resource, amount, Long::sum));
            if (facts != null) {
                facts.limits().forEach((limit, amount) -> demand.merge(limit, amount, Long::sum));
            }
        }
        demand.put(ResourceVector.PODS, counted);
        demand.put(NamespaceQuota.OBJECT_COUNT_PODS, counted);
        return demand;
    }

    private static String amounts(Map<String, Long> amounts) {
        List<String> parts = new ArrayList<>();
        amounts.forEach((resource, amount) -> parts.add(quotaName(resource) + "=" + ResourceVector.quantity(
                Objects.requireNonNullElse(NamespaceQuota.limitedResource(resource), resource), amount)));
        return String.join(",", parts);
    }

    /** How the API server names a resource of a pod's requests, or a limit, in a quota's message. */
    private static String quotaName(String resource) {
        return ResourceVector.PODS.equals(resource) || NamespaceQuota.OBJECT_COUNT_PODS.equals(resource)
                || resource.startsWith(NamespaceQuota.LIMITS_PREFIX) ? resource : "requests." + resource;
    }
}
