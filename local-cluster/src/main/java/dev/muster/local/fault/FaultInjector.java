package dev.muster.local.fault;

import dev.muster.local.protocol.RequestQuery;
import io.fabric8.mockwebserver.http.ByteString;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Fails a share of API requests on purpose ({@link FaultPlan}), as a real API server and its network do: an
 * internal error (500), throttling (429 with {@code Retry-After}), a lost optimistic-locking race (409) on a
 * write, a write applied but answered with a timeout (504, the client cannot tell whether it happened); and
 * every watch closed after a random 0.2 to 2 s, as an API server ends watches at random, only much sooner. A decorator of the emulator's dispatcher, so the emulator itself knows nothing of it.
 */
public final class FaultInjector extends Dispatcher {
    private static final Logger log = LoggerFactory.getLogger(FaultInjector.class);

    /** User-Agent of clients whose requests are never failed: the kubelet's and the observer's. */
    public static final String EXEMPT_USER_AGENT = "muster-local-cluster (exempt from injected faults)";

    /** The ways a request is failed. */
    public enum Fault { SERVER_ERROR, TOO_MANY_REQUESTS, CONFLICT, TIMEOUT_AFTER_APPLY, WATCH_CLOSED_EARLY }

    private static final List<Fault> READ_FAULTS = List.of(Fault.SERVER_ERROR, Fault.TOO_MANY_REQUESTS);
    private static final List<Fault> WRITE_FAULTS =
            List.of(Fault.SERVER_ERROR, Fault.TOO_MANY_REQUESTS, Fault.CONFLICT, Fault.TIMEOUT_AFTER_APPLY);

    private final Dispatcher delegate;
    private final FaultPlan plan;
    private final Random random;
    private final Map<Fault, AtomicLong> injected = new EnumMap<>(Fault.class);
    private final ScheduledExecutorService closer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "fault-injector-watch-closer");
        t.setDaemon(true);
        return t;
    });

    /** Fails requests to {@code delegate} as {@code plan} says, and passes the others on. */
    public FaultInjector(Dispatcher delegate, FaultPlan plan) {
        this.delegate = delegate;
        this.plan = plan;
        this.random = new Random(plan.seed());
        for (Fault fault : Fault.values()) {
            injected.put(fault, new AtomicLong());
        }
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        // Off (the default, ./muster local) costs nothing more than this test per request.
        if (!plan.active() || EXEMPT_USER_AGENT.equals(request.getHeader("User-Agent"))) {
            return delegate.dispatch(request);
        }
        boolean watch = RequestQuery.isWatch(request.getPath());
        boolean write = !"GET".equals(request.getMethod());
        // Every watch is cut short while faults are on: there are too few watch requests for a share of them
        // to test anything, and resuming a watch is what a client must get right most often.
        Fault fault = watch ? (plan.active() ? Fault.WATCH_CLOSED_EARLY : null) : pick(write ? WRITE_FAULTS : READ_FAULTS);
        if (fault == null) {
            return delegate.dispatch(request);
        }
        injected.get(fault).incrementAndGet();
        log.debug("injecting {} into {} {}", fault, request.getMethod(), request.getPath());
        return switch (fault) {
            case SERVER_ERROR -> status(500, "InternalError", "injected fault: internal error");
            case TOO_MANY_REQUESTS -> status(429, "TooManyRequests", "injected fault: too many requests, retry later")
                    .setHeader("Retry-After", "1");
            case CONFLICT -> status(409, "Conflict", "injected fault: Operation cannot be fulfilled: the object has "
                    + "been modified; please apply your changes to the latest version and try again");
            case TIMEOUT_AFTER_APPLY -> {
                delegate.dispatch(request);
                yield status(504, "Timeout", "injected fault: Timeout: request did not complete within requested timeout");
            }
            case WATCH_CLOSED_EARLY -> closeEarly(delegate.dispatch(request));
        };
    }

    /** How many requests were failed, by fault. */
    public Map<Fault, Long> injected() {
        Map<Fault, Long> counts = new EnumMap<>(Fault.class);
        injected.forEach((fault, n) -> counts.put(fault, n.get()));
        return counts;
    }

    private synchronized Fault pick(List<Fault> candidates) {
        if (random.nextDouble() >= plan.share()) {
            return null;
        }
        return candidates.get(random.nextInt(candidates.size()));
    }

    private synchronized long closeDelayMillis() {
        return 200 + random.nextInt(1800);
    }

    private MockResponse closeEarly(MockResponse response) {
        WebSocketListener stock = response.getWebSocketListener();
        if (stock == null) {
            return response;
        }
        long delay = closeDelayMillis();
        return response.withWebSocketUpgrade(new WebSocketListener() {
            @Override
            public void onBeforeAccept(WebSocket webSocket, Response r) {
                stock.onBeforeAccept(webSocket, r);
            }

            @Override
            public void onOpen(WebSocket webSocket, Response r) {
                stock.onOpen(webSocket, r);
                closer.schedule(() -> webSocket.close(1000, "injected fault: watch closed early"), delay,
                        TimeUnit.MILLISECONDS);
            }

            @Override
            public void onMessage(WebSocket webSocket, String text) {
                stock.onMessage(webSocket, text);
            }

            @Override
            public void onMessage(WebSocket webSocket, byte[] bytes) {
                stock.onMessage(webSocket, bytes);
            }

            @Override
            public void onMessage(WebSocket webSocket, ByteString bytes) {
                stock.onMessage(webSocket, bytes);
            }

            @Override
            public void onClosing(WebSocket webSocket, int code, String reason) {
                stock.onClosing(webSocket, code, reason);
            }

            @Override
            public void onClosed(WebSocket webSocket, int code, String reason) {
                stock.onClosed(webSocket, code, reason);
            }

            @Override
            public void onFailure(WebSocket webSocket, Throwable error, Response r) {
                stock.onFailure(webSocket, error, r);
            }
        });
    }

    private static MockResponse status(int code, String reason, String message) {
        String body = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\""
                + message + "\",\"reason\":\"" + reason + "\",\"code\":" + code + "}";
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json").setBody(body);
    }
}
