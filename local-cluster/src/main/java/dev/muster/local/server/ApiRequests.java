package dev.muster.local.server;

import dev.muster.local.fault.FaultInjector;
import dev.muster.local.protocol.RequestQuery;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Counts the API requests the emulator answers, by client, verb and resource, with kube-apiserver's verbs
 * ({@code apiserver_request_total}): get, list, watch, create, update, patch, delete, deletecollection. What a
 * job costs the API server is what Muster must keep down, so it is counted where every request passes. A dry run
 * is counted apart, its resource followed by {@code (dry run)}.
 */
public final class ApiRequests {
    /** Client name of the simulated kubelet and the observer's client (the local cluster's own client). */
    public static final String LOCAL_CLUSTER = "local-cluster";
    /** Client name of every other client: the components under test. */
    public static final String COMPONENTS = "components";
    /** What follows the resource of a dry run's kind. */
    private static final String DRY_RUN = " (dry run)";

    /**
     * One kind of request.
     *
     * @param client   {@link #LOCAL_CLUSTER} or {@link #COMPONENTS}
     * @param verb     kube-apiserver's verb
     * @param resource the resource, with its subresource after a slash ({@code pods/binding}, {@code jobs/status}), and
     *                 {@code " (dry run)"} after it for a dry run
     */
    public record Kind(String client, String verb, String resource) {
        @Override
        public String toString() {
            return verb + " " + resource;
        }

        /** The resource as RBAC names it: a dry run needs the permission of the write it rehearses. */
        public String authorizedResource() {
            return resource.endsWith(DRY_RUN) ? resource.substring(0, resource.length() - DRY_RUN.length()) : resource;
        }
    }

    private final Map<Kind, LongAdder> counts = new ConcurrentHashMap<>();
    private final List<Consumer<Kind>> newKindListeners = new CopyOnWriteArrayList<>();

    ApiRequests() {
    }

    /** How many requests of each kind were answered so far, most frequent first. */
    public Map<Kind, Long> snapshot() {
        Map<Kind, Long> sorted = new LinkedHashMap<>();
        counts.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue().sum()))
                .sorted(Map.Entry.<Kind, Long>comparingByValue().reversed()
                        .thenComparing(e -> e.getKey().toString()))
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    /** Requests of one kind so far. */
    public long count(Kind kind) {
        LongAdder adder = counts.get(kind);
        return adder == null ? 0 : adder.sum();
    }

    /** Requests of one client so far, of every kind. */
    public long total(String client) {
        return counts.entrySet().stream().filter(e -> e.getKey().client().equals(client))
                .mapToLong(e -> e.getValue().sum()).sum();
    }

    /**
     * Calls {@code listener} with each kind the first time a request of it is answered, and now with every kind
     * already seen, so that a metrics registry can follow the counts.
     */
    public void onNewKind(Consumer<Kind> listener) {
        newKindListeners.add(listener);
        counts.keySet().stream().sorted(Comparator.comparing(Kind::toString)).forEach(listener);
    }

    void count(RecordedRequest request) {
        Kind kind = kindOf(request.getHeader("User-Agent"), request.getMethod(), request.getPath());
        LongAdder adder = counts.get(kind);
        if (adder == null) {
            adder = counts.computeIfAbsent(kind, k -> new LongAdder());
            adder.increment();
            newKindListeners.forEach(l -> l.accept(kind));
            return;
        }
        adder.increment();
    }

    /** The kind of a request, from its client's user agent, its method and its path with query. */
    static Kind kindOf(String userAgent, String method, String pathWithQuery) {
        String client = FaultInjector.EXEMPT_USER_AGENT.equals(userAgent) ? LOCAL_CLUSTER : COMPONENTS;
        int query = pathWithQuery.indexOf('?');
        String path = query < 0 ? pathWithQuery : pathWithQuery.substring(0, query);
        boolean watch = RequestQuery.isWatch(pathWithQuery);
        // Every request passes here: no regular expression (split on one character is not one).
        int first = 0;
        while (first < path.length() && path.charAt(first) == '/') {
            first++;
        }
        String[] segments = path.substring(first).split("/");
        int start;
        if (segments.length >= 2 && segments[0].equals("api")) {
            start = 2;
        } else if (segments.length >= 3 && segments[0].equals("apis")) {
            start = 3;
        } else {
            return new Kind(client, method.toLowerCase(Locale.ROOT), "(non-resource) /" + segments[0]);
        }
        if (segments.length >= start + 3 && segments[start].equals("namespaces")) {
            start += 2;
        }
        if (segments.length <= start) {
            return new Kind(client, "get", "(discovery)");
        }
        String resource = segments[start];
        boolean named = segments.length > start + 1;
        if (segments.length > start + 2) {
            resource += "/" + segments[start + 2];
        }
        String verb = switch (method) {
            case "GET" -> watch ? "watch" : named ? "get" : "list";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> named ? "delete" : "deletecollection";
            default -> method.toLowerCase(Locale.ROOT);
        };
        // As kube-apiserver's apiserver_request_total labels dry_run: a dry run stores nothing, and a job's cost
        // in writes should not count it as one.
        if (query >= 0 && pathWithQuery.indexOf("dryRun=", query) >= 0
                && RequestQuery.parameter(pathWithQuery, "dryRun").filter(v -> !v.isEmpty()).isPresent()) {
            resource += DRY_RUN;
        }
        return new Kind(client, verb, resource);
    }

    /** A dispatcher that counts every request and passes it on. */
    Dispatcher counting(Dispatcher delegate) {
        return new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                count(request);
                return delegate.dispatch(request);
            }
        };
    }
}
