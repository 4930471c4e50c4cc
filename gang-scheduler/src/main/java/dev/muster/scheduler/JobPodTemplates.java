package dev.muster.scheduler;

import dev.muster.api.LimitRangeDefaults;
import dev.muster.api.MusterLabels;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.rendering.JobPodRenderer;
import dev.muster.scheduler.core.model.GroupKey;
import dev.muster.scheduler.core.model.InterPodTerms;
import dev.muster.scheduler.core.model.PlacementConstraints;
import dev.muster.scheduler.core.model.PodInfo;
import dev.muster.scheduler.core.model.QuotaFacts;
import dev.muster.scheduler.core.model.ResourceVector;
import dev.muster.scheduler.core.model.VolumeCatalog;
import dev.muster.gang.JobAdmissionRule;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.client.informers.cache.Cache;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * What the scheduler knows of a Muster Job for admission: whether the job waits for its PodGroup to be
 * admitted before it creates pods, and the pods it will then create, as {@link JobPodRenderer} renders them
 * for the Job controller too (the plugins' volumes, ports and env included). This is how a gang can be
 * admitted node by node before its pods exist, as Kueue admits a workload from its pod sets; a PodGroup's
 * {@code minResources} is a sum, which fragmentation defeats.
 *
 * @param name      the job's name
 * @param createdAt when the job was submitted, which orders its gang among gangs of equal priority
 * @param waiting   whether the job's pods wait for admission ({@link JobAdmissionRule}, which the Job
 *                  controller applies too)
 * @param pods      while waiting, every pod the job will create, in the order it creates them; otherwise
 *                  empty (nothing needs them), and empty for a job the controller refuses
 *                  ({@link JobPodRenderer#errors}), which gets no pods
 * @param renderedFrom the job's uid, {@code metadata.generation} and {@code status.version} the pods were
 *                  rendered from, with the LimitRange defaults applied to them, {@code null} if none were
 */
record JobPodTemplates(String name, Instant createdAt, boolean waiting, List<PlannedPod> pods,
                       String renderedFrom) {

    /**
     * The job's admission view. The pods are rendered again only when what they are rendered from changed:
     * the API server bumps {@code metadata.generation} on every spec change, and the job's status updates
     * (and informer resyncs) would otherwise render every pod of every waiting job again.
     *
     * @param volcanoLabels whether the Job controller gives the pods Volcano's labels too
     * @param defaults the container defaults of the job's namespace's LimitRanges, which the API server will give
     *               the pods' containers that lack them
     * @param before the view of the job's previous version, {@code null} if none
     */
    static JobPodTemplates of(Job job, JobAdmissionRule rule, boolean volcanoLabels, LimitRangeDefaults defaults,
                              JobPodTemplates before) {
        boolean waiting = rule.waitsForAdmission(job);
        List<PlannedPod> pods = List.of();
        String from = null;
        if (waiting) {
            Long generation = job.getMetadata().getGeneration();
            from = generation == null ? null
                    : job.getMetadata().getUid() + "/" + generation + "/" + version(job) + "/" + defaults;
            if (from != null && before != null && from.equals(before.renderedFrom())) {
                pods = before.pods();
            } else if (JobPodRenderer.errors(job).isEmpty()) {
                pods = JobPodRenderer.pods(job, version(job), volcanoLabels).stream()
                        .map(pod -> PlannedPod.of(pod, defaults)).toList();
            }
        }
        return new JobPodTemplates(job.getMetadata().getName(), KubeObjects.createdAt(job), waiting, pods, from);
    }

    private static int version(Job job) {
        return job.getStatus() == null ? 0 : job.getStatus().getVersion();
    }

    /**
     * The pods the job will create for the gang and that do not exist yet: those of the tasks the gang
     * counts ({@code dependsOn} leaves some out until they may start), with the topology of the claims
     * they will mount as it stands now.
     *
     * @param group    the gang
     * @param tasks    the tasks the PodGroup counts (its minTaskMember keys)
     * @param exists   whether a pod of the gang by this key ({@code namespace/name}) exists, in any state
     * @param priority a pod's priority from its {@code spec.priority} and class name
     * @param volumes  the claims, volumes and classes the pods' claims are read from
     */
    List<PodInfo> expectedPods(GroupKey group, Set<String> tasks, Predicate<String> exists,
                               BiFunction<Integer, String, Integer> priority, VolumeCatalog volumes) {
        List<PodInfo> expected = new ArrayList<>();
        for (PlannedPod pod : pods) {
            if (tasks.contains(pod.task()) && !exists.test(pod.key())) {
                expected.add(volumes.withVolumeTopology(new PodInfo(group.namespace(), pod.name(), group, pod.task(),
                        priority.apply(pod.priority(), pod.priorityClassName()), pod.requests(), pod.constraints(),
                        pod.labels(), pod.interPod(), pod.notEvaluated(), null, pod.deviceClaims()), pod.claims()));
            }
        }
        return expected;
    }

    /**
     * What quotas read of the job's pods beyond their requests, by {@code namespace/name}.
     *
     * @param globalDefault the global default PriorityClass, which the API server gives a pod naming none; null
     *                      without one
     */
    void addQuotaFacts(Map<String, QuotaFacts> byPod, String globalDefault) {
        for (PlannedPod pod : pods) {
            byPod.put(pod.key(), pod.quotaFacts().withDefaultClass(globalDefault));
        }
    }

    /**
     * A pod the job will create, as the scheduler reads it from the rendered pod.
     *
     * @param key          its key in the scheduler's cache, {@code namespace/name}, made once rather than every cycle
     * @param labels       its labels: the template's, the Job's, the task's and index's, the pod group's
     * @param interPod     its inter-pod terms and host ports
     * @param notEvaluated its fields admission does not evaluate ({@link KubeObjects#notEvaluatedInTemplate})
     * @param claims       the existing claims it will mount ({@code persistentVolumeClaim} volumes, its own
     *                     plugin-added ones included); an ephemeral volume's claim is made with the pod
     * @param deviceClaims its ResourceClaims ({@link DraObjects#claimKeys}): a template's is one still to be made
     * @param quotaFacts   what a ResourceQuota reads of it beyond its requests: its {@code limits.*}
     *                     ({@link PodRequests#quotaLimits}) and what quotas' scopes select pods by
     */
    record PlannedPod(String name, String key, String task, ResourceVector requests, PlacementConstraints constraints,
                      Integer priority, String priorityClassName, Map<String, String> labels,
                      InterPodTerms interPod, SortedSet<String> notEvaluated, List<String> claims,
                      List<String> deviceClaims, QuotaFacts quotaFacts) {

        /** The pod as the API server will create it: its containers given the LimitRange defaults they lack. */
        static PlannedPod of(Pod pod, LimitRangeDefaults defaults) {
            PodSpec spec = defaults.applyTo(pod.getSpec());
            Map<String, String> labels = Map.copyOf(pod.getMetadata().getLabels());
            return new PlannedPod(pod.getMetadata().getName(), Cache.metaNamespaceKeyFunc(pod),
                    labels.get(MusterLabels.TASK_NAME), PodRequests.of(spec),
                    KubeObjects.constraints(spec), spec.getPriority(), spec.getPriorityClassName(), labels,
                    KubeObjects.interPodTerms(spec, pod.getMetadata().getNamespace(), labels),
                    KubeObjects.notEvaluatedInTemplate(spec), KubeObjects.persistentClaimNames(spec),
                    DraObjects.claimKeys(pod), KubeObjects.quotaFacts(spec));
        }
    }
}
