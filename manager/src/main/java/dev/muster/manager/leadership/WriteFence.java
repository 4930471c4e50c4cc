package dev.muster.manager.leadership;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Refuses, on the process's API client, every write request (any method but GET) while
 * {@link Leadership#mayWrite()} is false: binds, evictions, status writes, creates, deletes, Events. A leader
 * whose renewals stopped getting through thus stops writing at its renew deadline, on its own clock, however
 * long its components take to stop, and before a standby can take the lease over; a standby writes nothing.
 * Reads go through, so informers stay warm for a takeover.
 *
 * <p>Token and access reviews are POSTs that change nothing in the cluster; they are not fenced, so that
 * authenticating a dashboard request works on every replica.
 */
public final class WriteFence implements Interceptor {
    /** Name of the interceptor on the client. */
    public static final String NAME = "muster-leadership-write-fence";
    private static final Logger log = LoggerFactory.getLogger(WriteFence.class);
    private static final List<String> REVIEW_GROUPS = List.of("/apis/authentication.k8s.io/", "/apis/authorization.k8s.io/");

    private final Leadership leadership;
    private final AtomicLong refused = new AtomicLong();

    public WriteFence(Leadership leadership) {
        this.leadership = leadership;
    }

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
        if ("GET".equals(request.method()) || leadership.mayWrite() || isReview(request.uri().getPath())) {
            return;
        }
        // One line for the first refusal: the lifecycle logs the loss of the lease itself.
        if (refused.getAndIncrement() == 0) {
            log.warn("leadership: refusing writes from now on ({} {}): this replica does not hold the lease "
                    + "within its renew deadline", request.method(), request.uri().getPath());
        }
        throw new KubernetesClientException("not written: this replica does not hold the lease within its renew "
                + "deadline (" + request.method() + " " + request.uri().getPath() + ")");
    }

    /** How many write requests were refused. */
    public long refused() {
        return refused.get();
    }

    private static boolean isReview(String path) {
        return REVIEW_GROUPS.stream().anyMatch(path::startsWith);
    }
}
