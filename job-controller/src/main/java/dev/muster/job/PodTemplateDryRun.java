package dev.muster.job;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobDefaults;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.batch.v1alpha1.validation.FieldError;
import dev.muster.job.decision.PodTemplateVerdict;
import dev.muster.rendering.JobPodRenderer;
import dev.muster.support.controller.ApiWarnings;
import dev.muster.support.controller.ObjectKey;
import dev.muster.support.event.EventRecorder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.kubernetes.client.utils.URLUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Asks the API server whether it would create a new job's pods: for each task, a dry-run create
 * ({@code dryRun=All}) of the task's first pod as the controller would create it, with
 * {@code fieldValidation=Strict}, as kubectl sends what a user wrote. kube-apiserver then validates the pod as it
 * validates any (its own rules, its admission plugins, its version's fields), stores nothing and answers as if it
 * had; a Volcano job gets the same checks at submission from Volcano's webhook, which validates task templates with
 * Kubernetes' own pod validation, and a batch/v1 Job from the API server itself.
 *
 * <p>The verdicts are kept per namespace and per what shapes a task's pods (its template, the job's plugins,
 * volumes, scheduler and priority class) for {@link #REMEMBERED}, so a thousand jobs made from one template cost one
 * request; an answer that says nothing about the template (a quota exceeded for now, a timeout) is not kept, nor a
 * refusal by the namespace's Pod Security level, which its administrator may relax. The
 * warnings of a verdict are recorded on each job once, as Warning Events {@value #WARNING_REASON}.
 */
final class PodTemplateDryRun {
    private static final Logger log = LoggerFactory.getLogger(PodTemplateDryRun.class);
    /** How long a verdict is trusted: a namespace's admission (LimitRanges, Pod Security labels) may change. */
    static final Duration REMEMBERED = Duration.ofMinutes(10);
    /** Verdicts kept at most: distinct templates in use at once. */
    static final int MAX_REMEMBERED = 1_000;
    /** Reason of the Warning Event that carries a warning the API server sent about a task's pods. */
    static final String WARNING_REASON = "PodTemplateWarning";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final KubernetesClient client;
    private final EventRecorder events;
    private final boolean volcanoLabels;
    private final Cache<String, PodTemplateVerdict> verdicts;
    /** The uid of the job of each key whose warnings were recorded. */
    private final Map<ObjectKey, String> warned = new ConcurrentHashMap<>();

    PodTemplateDryRun(KubernetesClient client, EventRecorder events, boolean volcanoLabels, Ticker ticker) {
        this.client = client;
        this.events = events;
        this.volcanoLabels = volcanoLabels;
        this.verdicts = Caffeine.newBuilder().expireAfterWrite(REMEMBERED).maximumSize(MAX_REMEMBERED).ticker(ticker).build();
    }

    /**
     * The fields of the job's task templates the API server refuses, empty when it refuses none or did not say; the
     * first call for a job records the warnings it sent. A job that cannot be rendered is not asked about: its
     * spec's own errors say why.
     */
    List<FieldError> refusals(Job job) {
        if (!JobPodRenderer.errors(job).isEmpty()) {
            return List.of();
        }
        List<FieldError> refusals = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        List<TaskSpec> tasks = JobDefaults.tasksOf(job.getSpec());
        for (int i = 0; i < tasks.size(); i++) {
            String key = key(job, tasks.get(i));
            PodTemplateVerdict verdict = verdicts.getIfPresent(key);
            if (verdict == null) {
                // Not Cache.get(key, loader): the loader would hold a lock of the cache's map through a round trip.
                verdict = ask(i, JobPodRenderer.pod(job, tasks.get(i), 0, 0, volcanoLabels)).orElse(null);
                if (verdict != null && verdict.lasting()) {
                    verdicts.put(key, verdict);
                }
            }
            if (verdict != null) {
                refusals.addAll(verdict.refusals());
                warnings.addAll(verdict.describeWarnings(i));
            }
        }
        ObjectKey key = ObjectKey.of(job);
        String uid = job.getMetadata().getUid();
        if (!warnings.isEmpty() && !Objects.equals(warned.put(key, uid), uid)) {
            warnings.forEach(w -> events.record(job, EventRecorder.WARNING, WARNING_REASON, w));
            log.info("job {}: the API server warns about its pods: {}", key, String.join("; ", warnings));
        }
        return refusals;
    }

    /** Drops what is remembered of a job that is gone. */
    void forget(ObjectKey key) {
        warned.remove(key);
    }

    /** The verdict of a dry-run create of {@code pod}, or nothing if the answer did not say or none came. */
    private Optional<PodTemplateVerdict> ask(int taskIndex, Pod pod) {
        String namespace = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        HttpClient http = client.getHttpClient();
        String url = URLUtils.join(client.getMasterUrl().toString(), "api", "v1", "namespaces", namespace, "pods")
                + "?dryRun=All&fieldValidation=Strict";
        HttpRequest request = http.newHttpRequestBuilder().uri(url)
                .post("application/json", Serialization.asJson(pod)).build();
        try {
            HttpResponse<String> answer = http.sendAsync(request, String.class)
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            Status status = answer.isSuccessful() || answer.body() == null ? null : readStatus(answer.body());
            Optional<PodTemplateVerdict> verdict = PodTemplateVerdict.of(taskIndex, name, answer.code(), status,
                    ApiWarnings.parse(answer.headers("Warning")));
            if (verdict.isEmpty()) {
                log.debug("pod {}/{}: a dry-run create answered {} ({}); the template is not judged",
                        namespace, name, answer.code(), status == null ? "no status" : status.getMessage());
            }
            return verdict;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (ExecutionException | TimeoutException e) {
            log.debug("pod {}/{}: a dry-run create failed ({}); the template is not judged", namespace, name, e.toString());
            return Optional.empty();
        }
    }

    private static Status readStatus(String body) {
        try {
            return Serialization.unmarshal(body, Status.class);
        } catch (RuntimeException notAStatus) {
            return null;
        }
    }

    /**
     * What a task's pods are made of besides the job's name and uid, in its namespace: equal keys make equally valid
     * pods. The JSON itself rather than a digest of it: a few kilobytes per kept verdict.
     */
    private static String key(Job job, TaskSpec task) {
        return job.getMetadata().getNamespace() + "/" + Serialization.asJson(Arrays.asList(task.getTemplate(),
                job.getSpec().getPlugins(), job.getSpec().getVolumes(), JobPodRenderer.schedulerName(job, task),
                job.getSpec().getPriorityClassName()));
    }
}
