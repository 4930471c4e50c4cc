package dev.muster.local.quota;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.local.protocol.StatusResponses;
import dev.muster.local.store.StoredObjects;
import io.fabric8.mockwebserver.http.MockResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * kube-apiserver's ResourceQuota admission of pod creations: a pod that a quota of its namespace would not hold, or
 * that lacks a request or limit a quota constrains, is refused with a 403 ({@link PodQuota#refusal}); an admitted
 * pod raises the quotas' {@code status.used} in the same step, dry runs excepted, so that the next creation is
 * judged against it. Creations in namespaces with quotas are judged and stored one at a time, and against usage
 * counted from the stored pods rather than the stored {@code status.used}, which the quota controller may not have
 * brought up to date yet: two creations in a row cannot both slip under a limit.
 */
public final class QuotaAdmission {
    private static final Logger log = LoggerFactory.getLogger(QuotaAdmission.class);
    /** Status writes lost to the quota controller's are retried against the new version this often. */
    private static final int STATUS_ATTEMPTS = 3;

    private final Function<String, List<ObjectNode>> quotasIn;
    private final Function<String, List<ObjectNode>> podsIn;
    private final StoredObjects store;
    private final Clock clock;
    private final Lock lock = new ReentrantLock();

    /**
     * @param quotasIn the stored ResourceQuotas of a namespace, read without matching the whole store: it is asked
     *                 on every pod creation
     * @param podsIn   the stored pods of a namespace
     * @param store    where quota status is written
     * @param clock    what deletion grace periods are measured against
     */
    public QuotaAdmission(Function<String, List<ObjectNode>> quotasIn, Function<String, List<ObjectNode>> podsIn,
                          StoredObjects store, Clock clock) {
        this.quotasIn = quotasIn;
        this.podsIn = podsIn;
        this.store = store;
        this.clock = clock;
    }

    /**
     * Creates a pod through {@code create} if the quotas of its namespace admit it, else answers kube-apiserver's
     * 403; on a creation that stores the pod, writes the quotas' new status.
     *
     * @param pod    the pod as it would be stored: defaulted, named and valid
     * @param dryRun whether {@code create} stores nothing, so that no quota is raised
     */
    public MockResponse create(String namespace, JsonNode pod, boolean dryRun, Supplier<MockResponse> create) {
        if (quotasIn.apply(namespace).isEmpty()) {
            return create.get();
        }
        lock.lock();
        try {
            Instant now = clock.instant();
            List<ObjectNode> pods = podsIn.apply(namespace);
            List<ObjectNode> quotas = quotasIn.apply(namespace).stream()
                    .sorted(Comparator.comparing(quota -> quota.path("metadata").path("name").asText()))
                    .map(quota -> withStatus(quota, PodQuota.status(quota, pods, now))).toList();
            Optional<String> refusal = PodQuota.refusal(quotas, pod, now);
            if (refusal.isPresent()) {
                return StatusResponses.forbidden("pods", pod.path("metadata").path("name").asText(), refusal.get());
            }
            MockResponse created = create.get();
            if (!dryRun && created.code() == HttpURLConnection.HTTP_CREATED) {
                // The namespace's pods as read above and the one just stored: creations here take the lock, so
                // reading them all again would find no other.
                List<JsonNode> after = new ArrayList<>(pods);
                after.add(pod);
                raise(namespace, after);
            }
            return created;
        } finally {
            lock.unlock();
        }
    }

    /** Brings the status of the namespace's quotas up to its pods, the pod just created included. */
    private void raise(String namespace, List<JsonNode> pods) {
        for (ObjectNode quota : quotasIn.apply(namespace)) {
            String path = "/api/v1/namespaces/" + namespace + "/resourcequotas/"
                    + quota.path("metadata").path("name").asText() + "/status";
            ObjectNode current = quota;
            for (int attempt = 1; attempt <= STATUS_ATTEMPTS; attempt++) {
                ObjectNode status = PodQuota.status(current, pods, clock.instant());
                if (status.equals(current.path("status"))) {
                    break;
                }
                MockResponse written = store.replace(path, withStatus(current, status));
                if (written.code() != HttpURLConnection.HTTP_CONFLICT) {
                    if (written.code() >= HttpURLConnection.HTTP_MULT_CHOICE) {
                        // The quota controller corrects it; the pod is stored either way.
                        log.debug("could not raise {}: {}", path, written.code());
                    }
                    break;
                }
                Optional<ObjectNode> reread = store.get(path);
                if (reread.isEmpty()) {
                    break;
                }
                current = reread.get();
            }
        }
    }

    private static ObjectNode withStatus(ObjectNode quota, ObjectNode status) {
        ObjectNode copy = quota.deepCopy();
        copy.set("status", status);
        return copy;
    }
}
