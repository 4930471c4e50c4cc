package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.cluster.NodeState;
import dev.muster.scheduler.core.model.InterPodTerms;
import dev.muster.scheduler.core.model.NodeInfo;
import dev.muster.scheduler.core.model.NodeSelectorRequirement;
import dev.muster.scheduler.core.model.PodAffinityTerm;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.SpreadConstraint;
import dev.muster.scheduler.core.model.WeightedPodAffinityTerm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Where the pods are during one cycle: the snapshot's pods and those the cycle's trials placed or took
 * off since, with the pre-computed state the {@link PodFilter}s need (kube-scheduler's PreFilter state):
 * per topology key, each node's domain; per selector, how many pods it selects in each domain; per
 * required anti-affinity term of a pod in the layout, how many pods owning it are in each domain.
 *
 * <p>Every {@link PlacementStatement} reports its allocations and evictions here, and their undoing, so
 * a discarded gang leaves no trace. Moves are appended to a log; a selector's counts are built on first
 * use and then catch up with the log when asked, so a move costs nothing for selectors no pod asks about
 * any more, and a filter never scans all pods per node. Not thread-safe: the cycle thread owns it.
 */
final class PodLayout {
    private final NodeState[] nodes;
    private final Map<String, Map<String, String>> namespaceLabels;
    /**
     * Per node, its pods as of {@link #podsCursor} in the log, copied from the snapshot's on the node's
     * first change; {@code null} before. Kept only as far as a filter asks (host ports), so that a
     * placement costs no more than its log entry.
     */
    private final List<PodInfo>[] current;
    private int podsCursor;
    private final Map<String, TopologyDomains> topologies = new HashMap<>();
    private final Map<CountKey, DomainCounts> counts = new HashMap<>();
    /** Per required anti-affinity term owned by pods in the layout, the owners per domain of its key. */
    private final Map<PodAffinityTerm, DomainCounts> antiAffinityOwners = new LinkedHashMap<>();
    /**
     * The terms of {@link #antiAffinityOwners} by a label the pods they select must carry (key, then
     * value: those of the term's first In requirement), so that a pod is matched only against terms that
     * can select it, not against every term in the layout.
     */
    private final Map<String, Map<String, List<PodAffinityTerm>>> antiAffinityByLabel = new HashMap<>();
    /** The terms of {@link #antiAffinityOwners} without an In requirement, matched against every pod. */
    private final List<PodAffinityTerm> antiAffinityUnindexed = new ArrayList<>();
    /**
     * Per term of a pod in the layout that scores the pods it selects for InterPodAffinity (preferred
     * affinity +weight, preferred anti-affinity -weight, required affinity +1), the owners per domain of
     * its key. Distinct terms are few, so a pod is matched against each of them.
     */
    private final Map<ScoringTerm, DomainCounts> scoringOwners = new LinkedHashMap<>();
    /** Per topology spread policy, the nodes whose pods count ({@link #spreadEligible}). */
    private final Map<List<Object>, boolean[]> eligibleNodes = new HashMap<>();
    /** Per eligible-node array (by identity) and topology key, the domains holding an eligible node. */
    private final Map<boolean[], Map<String, boolean[]>> eligibleDomains = new IdentityHashMap<>();

    private PodInfo[] logPods = new PodInfo[64];
    private int[] logNodes = new int[64];
    /** +1 for a pod added to its node, -1 for one taken off. */
    private byte[] logSigns = new byte[64];
    private int logSize;

    @SuppressWarnings("unchecked")
    PodLayout(ClusterSnapshot snapshot) {
        this.nodes = snapshot.nodeArray();
        this.namespaceLabels = snapshot.namespaceLabels();
        this.current = new List[nodes.length];
        for (int n = 0; n < nodes.length; n++) {
            for (PodInfo pod : nodes[n].snapshotPods()) {
                if (!pod.interPod().isEmpty()) {
                    countAntiAffinityOwner(pod, n, 1);
                    countScoringOwner(pod, n, 1);
                }
            }
        }
    }

    /** Whether the term selects the pod, given the namespaces' labels as the cycle's snapshot has them. */
    boolean selects(PodAffinityTerm term, PodInfo pod) {
        return term.matches(pod, namespaceLabels);
    }

    /** The pods on the node now. */
    List<PodInfo> podsOn(int node) {
        for (; podsCursor < logSize; podsCursor++) {
            List<PodInfo> pods = changing(logNodes[podsCursor]);
            if (logSigns[podsCursor] > 0) {
                pods.add(logPods[podsCursor]);
            } else {
                remove(pods, logPods[podsCursor]);
            }
        }
        List<PodInfo> pods = current[node];
        return pods == null ? nodes[node].snapshotPods() : pods;
    }

    /** The domains of a topology key; computed once per cycle. */
    TopologyDomains domains(String topologyKey) {
        return topologies.computeIfAbsent(topologyKey, key -> new TopologyDomains(nodes, key));
    }

    /** How many pods the term selects in each domain of its topology key, now (as the next method). */
    DomainCounts counts(PodAffinityTerm term) {
        return counts(term, pod -> selects(term, pod), term.topologyKey());
    }

    /**
     * How many pods the selector selects in each domain of the key, now. Pods on nodes without the key
     * are not counted.
     *
     * @param selectorKey identifies the selector: equal keys must select the same pods
     */
    DomainCounts counts(Object selectorKey, Predicate<PodInfo> selects, String topologyKey) {
        return counts(selectorKey, selects, topologyKey, null);
    }

    /**
     * How many pods the selector selects in each domain of the key, now, counting only pods on the nodes
     * marked {@code counted}.
     *
     * @param selectorKey identifies the selector and the nodes counted: equal keys must count the same pods
     * @param counted     per node, whether its pods count; {@code null} for every node
     */
    DomainCounts counts(Object selectorKey, Predicate<PodInfo> selects, String topologyKey, boolean[] counted) {
        CountKey key = new CountKey(selectorKey, topologyKey);
        DomainCounts domainCounts = counts.get(key);
        if (domainCounts == null) {
            domainCounts = new DomainCounts(domains(topologyKey), selects, counted);
            for (int n = 0; n < nodes.length; n++) {
                for (PodInfo pod : nodes[n].snapshotPods()) {
                    domainCounts.count(pod, n, 1);
                }
            }
            counts.put(key, domainCounts);
        }
        domainCounts.catchUp(this);
        return domainCounts;
    }

    /**
     * The required anti-affinity terms of pods in the layout that select the pod, each with how many of
     * its owners are in each domain of its key: the pod may go to none of those domains.
     */
    List<DomainCounts> antiAffinityAgainst(PodInfo pod) {
        if (antiAffinityOwners.isEmpty()) {
            return List.of();
        }
        List<DomainCounts> against = new ArrayList<>(0);
        for (Map.Entry<String, String> label : pod.labels().entrySet()) {
            Map<String, List<PodAffinityTerm>> byValue = antiAffinityByLabel.get(label.getKey());
            List<PodAffinityTerm> terms = byValue == null ? null : byValue.get(label.getValue());
            if (terms != null) {
                addSelecting(terms, pod, against);
            }
        }
        addSelecting(antiAffinityUnindexed, pod, against);
        return against;
    }

    private void addSelecting(List<PodAffinityTerm> terms, PodInfo pod, List<DomainCounts> against) {
        for (PodAffinityTerm term : terms) {
            DomainCounts owners = antiAffinityOwners.get(term);
            if (owners.total() > 0 && selects(term, pod)) {
                against.add(owners);
            }
        }
    }

    /**
     * The nodes whose pods one of a pod's topology spread constraints counts: nodes with every key of the
     * constraints it is judged with ({@code group}: the pod's DoNotSchedule ones for the filter, its
     * ScheduleAnyway ones for the score, as kube-scheduler keeps them apart) and, as this constraint's
     * policies say, matching the pod's node affinity and tolerating its taints. The same array for equal
     * questions within the cycle; not to be changed.
     */
    boolean[] spreadEligible(PodInfo pod, SpreadConstraint constraint, List<SpreadConstraint> group) {
        List<String> keys = group.stream().map(SpreadConstraint::topologyKey).distinct().sorted().toList();
        boolean honorAffinity = constraint.honorNodeAffinity();
        boolean honorTaints = constraint.honorTaints();
        return eligibleNodes.computeIfAbsent(List.of(keys, honorAffinity, honorTaints, pod.constraints()), k -> {
            boolean[] eligible = new boolean[nodes.length];
            for (int n = 0; n < nodes.length; n++) {
                NodeInfo node = nodes[n].info();
                eligible[n] = node.labels().keySet().containsAll(keys)
                        && (!honorAffinity || pod.constraints().matchesNodeAffinity(node))
                        && (!honorTaints || pod.constraints().untoleratedTaint(node) == null);
            }
            return eligible;
        });
    }

    /** Per domain of the key, whether an eligible node is in it; cached with the eligible array. */
    boolean[] domainsOf(boolean[] eligible, String topologyKey) {
        return eligibleDomains.computeIfAbsent(eligible, e -> new HashMap<>()).computeIfAbsent(topologyKey, key -> {
            TopologyDomains domains = domains(key);
            boolean[] present = new boolean[domains.count()];
            for (int n = 0; n < eligible.length; n++) {
                if (eligible[n] && domains.of(n) >= 0) {
                    present[domains.of(n)] = true;
                }
            }
            return present;
        });
    }

    /** Whether some pod in the layout has required anti-affinity terms, which may keep any pod away. */
    boolean hasAntiAffinityOwners() {
        return !antiAffinityOwners.isEmpty();
    }

    /**
     * Whether a {@link PodFilter} or {@link PodScore} may have something to say about the pod: it has
     * inter-pod terms, host ports or spread, or a pod in the layout has terms that may select it. When not,
     * the pod takes its shape index's best node and none of them need preparing.
     */
    boolean mayConcern(PodInfo pod) {
        return !antiAffinityOwners.isEmpty() || !scoringOwners.isEmpty() || !pod.interPod().isEmpty();
    }

    /** The pod was placed on the node (or its eviction undone). */
    void added(PodInfo pod, int node) {
        record(pod, node, 1);
    }

    /** The pod was taken off the node (or its placement undone). */
    void removed(PodInfo pod, int node) {
        record(pod, node, -1);
    }

    private static void remove(List<PodInfo> pods, PodInfo pod) {
        // Undoing takes off the latest placement first, so the pod is most likely last.
        for (int at = pods.size() - 1; at >= 0; at--) {
            if (pods.get(at) == pod) {
                pods.remove(at);
                return;
            }
        }
    }

    private List<PodInfo> changing(int node) {
        List<PodInfo> pods = current[node];
        if (pods == null) {
            pods = new ArrayList<>(nodes[node].snapshotPods());
            current[node] = pods;
        }
        return pods;
    }

    private void record(PodInfo pod, int node, int sign) {
        if (logSize == logPods.length) {
            logPods = Arrays.copyOf(logPods, logSize * 2);
            logNodes = Arrays.copyOf(logNodes, logSize * 2);
            logSigns = Arrays.copyOf(logSigns, logSize * 2);
        }
        logPods[logSize] = pod;
        logNodes[logSize] = node;
        logSigns[logSize] = (byte) sign;
        logSize++;
        if (!pod.interPod().isEmpty()) {
            countAntiAffinityOwner(pod, node, sign);
            countScoringOwner(pod, node, sign);
        }
    }

    /**
     * The InterPodAffinity scoring terms of pods in the layout that select the pod (the symmetric part of
     * kube-scheduler's score), each with its owners per domain of its key.
     */
    List<Map.Entry<ScoringTerm, DomainCounts>> scoringAgainst(PodInfo pod) {
        if (scoringOwners.isEmpty()) {
            return List.of();
        }
        List<Map.Entry<ScoringTerm, DomainCounts>> against = new ArrayList<>(0);
        for (Map.Entry<ScoringTerm, DomainCounts> entry : scoringOwners.entrySet()) {
            if (entry.getValue().total() > 0 && selects(entry.getKey().term(), pod)) {
                against.add(entry);
            }
        }
        return against;
    }

    private void countScoringOwner(PodInfo pod, int node, int sign) {
        InterPodTerms terms = pod.interPod();
        for (WeightedPodAffinityTerm preferred : terms.preferredAffinity()) {
            countScoringOwner(new ScoringTerm(preferred.term(), preferred.weight()), node, sign);
        }
        for (WeightedPodAffinityTerm preferred : terms.preferredAntiAffinity()) {
            countScoringOwner(new ScoringTerm(preferred.term(), -preferred.weight()), node, sign);
        }
        for (PodAffinityTerm required : terms.affinity()) {
            countScoringOwner(new ScoringTerm(required, InterPodAffinityScore.HARD_POD_AFFINITY_WEIGHT), node, sign);
        }
    }

    private void countScoringOwner(ScoringTerm term, int node, int sign) {
        scoringOwners.computeIfAbsent(term, t -> new DomainCounts(domains(t.term().topologyKey()), p -> true, null))
                .add(node, sign);
    }

    private void countAntiAffinityOwner(PodInfo pod, int node, int sign) {
        for (PodAffinityTerm term : pod.interPod().antiAffinity()) {
            DomainCounts owners = antiAffinityOwners.get(term);
            if (owners == null) {
                owners = new DomainCounts(domains(term.topologyKey()), p -> true, null);
                antiAffinityOwners.put(term, owners);
                index(term);
            }
            owners.add(node, sign);
        }
    }

    private void index(PodAffinityTerm term) {
        if (term.selector() == null) {
            // Selects no pod: never needs matching.
            return;
        }
        NodeSelectorRequirement in = term.selector().stream()
                .filter(r -> r.operator() == NodeSelectorRequirement.Operator.In).findFirst().orElse(null);
        if (in == null) {
            antiAffinityUnindexed.add(term);
            return;
        }
        Map<String, List<PodAffinityTerm>> byValue = antiAffinityByLabel.computeIfAbsent(in.key(), k -> new HashMap<>());
        for (String value : in.values()) {
            byValue.computeIfAbsent(value, v -> new ArrayList<>(1)).add(term);
        }
    }

    /**
     * A term that scores the pods it selects by this weight per owner in their node's domain (negative
     * for anti-affinity).
     */
    record ScoringTerm(PodAffinityTerm term, int weight) {
    }

    /** Identifies one selector's counts over one topology key. */
    private record CountKey(Object selector, String topologyKey) {
    }

    /** Pods per domain of one topology key: those a selector selects, or the owners of one term. */
    static final class DomainCounts {
        private final TopologyDomains domains;
        private final Predicate<PodInfo> selects;
        /** Per node, whether its pods count; {@code null}: every node's do. */
        private final boolean[] counted;
        private final int[] perDomain;
        private int total;
        /** How much of the layout's log is counted. */
        private int cursor;

        private DomainCounts(TopologyDomains domains, Predicate<PodInfo> selects, boolean[] counted) {
            this.domains = domains;
            this.selects = selects;
            this.counted = counted;
            this.perDomain = new int[domains.count()];
        }

        /** The selected pods in the node's domain; 0 if the node lacks the key. */
        int atNode(int node) {
            int domain = domains.of(node);
            return domain < 0 ? 0 : perDomain[domain];
        }

        /** Whether the node has the key. */
        boolean hasDomain(int node) {
            return domains.of(node) >= 0;
        }

        /** The selected pods in every domain. */
        int total() {
            return total;
        }

        /** The selected pods in a domain, by number. */
        int inDomain(int domain) {
            return perDomain[domain];
        }

        private void catchUp(PodLayout layout) {
            for (; cursor < layout.logSize; cursor++) {
                count(layout.logPods[cursor], layout.logNodes[cursor], layout.logSigns[cursor]);
            }
        }

        private void count(PodInfo pod, int node, int sign) {
            if ((counted == null || counted[node]) && selects.test(pod)) {
                add(node, sign);
            }
        }

        private void add(int node, int sign) {
            int domain = domains.of(node);
            if (domain >= 0) {
                perDomain[domain] += sign;
                total += sign;
            }
        }
    }
}
