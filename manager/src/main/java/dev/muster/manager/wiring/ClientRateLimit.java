package dev.muster.manager.wiring;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Client-side rate limit of the components' API client, as client-go's QPS and burst: every request, reads
 * and watches included as in client-go, takes a token from a {@link TokenBucket} and waits for it when the
 * bucket is empty, so a burst of work (a thousand Jobs applied at once) reaches the API server at
 * {@code muster.kubernetes.qps} instead of all at once. The wait happens on the thread that sends the
 * request (a reconcile worker, a bind thread), which is what slows the components down to the limit.
 */
final class ClientRateLimit implements Interceptor {
    /** Name of the interceptor on the client. */
    static final String NAME = "muster-client-rate-limit";

    private final TokenBucket bucket;

    ClientRateLimit(double qps, int burst) {
        this.bucket = new TokenBucket(qps, burst, System.nanoTime());
    }

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
        long wait = bucket.reserve(System.nanoTime());
        long until = System.nanoTime() + wait;
        while (wait > 0) {
            LockSupport.parkNanos(wait);
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new KubernetesClientException("interrupted while waiting " + TimeUnit.NANOSECONDS.toMillis(wait)
                        + " ms for the client-side rate limit (" + request.method() + " " + request.uri().getPath() + ")");
            }
            wait = until - System.nanoTime();
        }
    }
}
