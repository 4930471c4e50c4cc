package dev.muster.local.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.local.protocol.Json;
import dev.muster.local.protocol.RequestQuery;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Watches with the API server's {@code resourceVersion} semantics, which the stock mock dispatcher does not
 * have (it answers every watch with the current objects as ADDED, so a client that reconnects after a cut
 * never hears of what was deleted meanwhile):
 * <ul>
 *   <li>no {@code resourceVersion}, or {@code "0"}: every matching object as ADDED, then every change;</li>
 *   <li>{@code resourceVersion=R}: every change after R, replayed from the recent changes kept here, then every
 *   new change, so a watch that ends is resumed where it stopped without losing a deletion;</li>
 *   <li>R older than the oldest change kept: one ERROR event with a 410 {@code Expired} Status, as the API
 *   server answers once its watch cache has moved past R; a client then lists again.</li>
 * </ul>
 * Label and field selectors are applied to the object before and after each change, as the API server does:
 * an object that starts matching arrives as ADDED, one that stops matching as DELETED.
 * <p>
 * A streaming list ({@code sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true},
 * client-go's WatchList, on by default since 1.35) gets every matching object as ADDED, then a BOOKMARK whose
 * object is an empty object of the kind with the resourceVersion of that state and the annotation
 * {@code k8s.io/initial-events-end: "true"}, as kube-apiserver's watch cache sends it; then every change.
 * {@code sendInitialEvents=false} without a resourceVersion starts at the newest change, with no initial events.
 * <p>
 * Every method runs under the store's monitor, which the dispatcher also holds while it changes the store, so
 * a watch that opens sees each change exactly once: either in its replay or live.
 */
public final class WatchHub {
    private static final Logger log = LoggerFactory.getLogger(WatchHub.class);
    /** Changes kept for resumption; a kube-apiserver watch cache keeps about as many per resource. */
    public static final int DEFAULT_HISTORY = 20_000;
    /** The annotation of the bookmark that ends a streaming list's initial events (metav1.InitialEventsAnnotationKey). */
    static final String INITIAL_EVENTS_END = "k8s.io/initial-events-end";

    /** One change of one stored object; a state is null where the object did not exist. */
    public record Change(long resourceVersion, AttributeSet oldKey, String oldState, AttributeSet newKey, String newState) {
    }

    /**
     * Where a watch starts.
     *
     * @param resourceVersion   the request's {@code resourceVersion}, empty if none
     * @param sendInitialEvents the request's {@code sendInitialEvents}, null if absent
     * @param apiVersion        the watched kind's apiVersion, for the bookmark that ends the initial events
     * @param kind              the watched kind, for that bookmark
     */
    public record Start(String resourceVersion, Boolean sendInitialEvents, String resourceVersionMatch,
                 boolean allowWatchBookmarks, String apiVersion, String kind) {
        /** The start a request path's query asks for. */
        public static Start of(String pathWithQuery, String apiVersion, String kind) {
            Boolean send = RequestQuery.flag(pathWithQuery, "sendInitialEvents").orElse(null);
            return new Start(WatchHub.resourceVersion(pathWithQuery), send,
                    RequestQuery.parameter(pathWithQuery, "resourceVersionMatch").orElse(""),
                    RequestQuery.flag(pathWithQuery, "allowWatchBookmarks").orElse(false),
                    apiVersion, kind);
        }

        /** What kube-apiserver's ListOptions validation refuses in a watch with {@code sendInitialEvents}, if anything. */
        public Optional<String> problem() {
            if (sendInitialEvents == null) {
                return resourceVersionMatch.isEmpty() ? Optional.empty() : Optional.of("resourceVersionMatch: Forbidden: "
                        + "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided");
            }
            if (!resourceVersionMatch.equals("NotOlderThan")) {
                return Optional.of("resourceVersionMatch: Forbidden: sendInitialEvents requires setting "
                        + "resourceVersionMatch to NotOlderThan");
            }
            if (!allowWatchBookmarks) {
                return Optional.of("allowWatchBookmarks: Required value: sendInitialEvents requires setting "
                        + "allowWatchBookmarks to true");
            }
            return Optional.empty();
        }

        private boolean fromNow() {
            return resourceVersion.isEmpty() || resourceVersion.equals("0");
        }
    }

    private final Object storeMonitor;
    private final int history;
    private final ArrayDeque<Change> recent = new ArrayDeque<>();
    private final Set<OpenWatch> open = ConcurrentHashMap.newKeySet();
    /** resourceVersion of the newest change no longer kept: watches from before it are told 410. */
    private long forgottenUpTo;
    /** resourceVersion of the newest change: the version of the state a list or the initial events show. */
    private long newest;

    /**
     * A hub with no watch open yet.
     *
     * @param storeMonitor the lock the store holds while it changes, so that a watch starts between two changes
     * @param history      how many recent changes are kept for watches that resume from a resourceVersion
     */
    public WatchHub(Object storeMonitor, int history) {
        if (history < 1) {
            throw new IllegalArgumentException("watch history must keep at least one change, got " + history);
        }
        this.storeMonitor = storeMonitor;
        this.history = history;
    }

    /** Keeps a change and sends it to every open watch it concerns. Called under the store's monitor. */
    public void changed(Change change) {
        synchronized (storeMonitor) {
            newest = Math.max(newest, change.resourceVersion());
            recent.addLast(change);
            if (recent.size() > history) {
                forgottenUpTo = recent.removeFirst().resourceVersion();
            }
            for (OpenWatch watch : open) {
                try {
                    watch.send(change);
                } catch (RuntimeException e) {
                    // One watch that cannot take the change must neither fail the write that made it nor keep
                    // it from the other watches; its client resumes from the last change it received.
                    log.warn("watch of {} could not be sent a change and is closed: {}", watch.query, e.toString());
                    watch.end();
                }
            }
        }
    }

    /**
     * The web socket side of a watch request.
     *
     * @param query           the kind, namespace (and name) the path names, as the store's keys match it
     * @param selectors       the request's label and field selectors
     * @param start           the request's resourceVersion and whether it asks for initial events
     * @param current         the stored objects by key, read under the store's monitor for an initial listing
     * @param render          what an event carries for a stored object: the object, or a Table of it
     */
    public WebSocketListener watch(AttributeSet query, Selectors selectors, Start start,
                            Supplier<Map<AttributeSet, String>> current, UnaryOperator<String> render) {
        return new OpenWatch(query, selectors, start, current, render);
    }

    /**
     * The resourceVersion of the newest change, which a list read after this call shows at least: a watch from it
     * misses nothing the list did not show.
     */
    public long newestResourceVersion() {
        synchronized (storeMonitor) {
            return newest;
        }
    }

    /** The {@code resourceVersion} parameter of a request path's query, empty if there is none. */
    static String resourceVersion(String pathWithQuery) {
        return RequestQuery.parameter(pathWithQuery, "resourceVersion").orElse("");
    }

    /** Forgets every kept change, as a restarted API server would. */
    public void clear() {
        synchronized (storeMonitor) {
            recent.clear();
            forgottenUpTo = 0;
        }
    }

    private final class OpenWatch extends WebSocketListener {
        private final AttributeSet query;
        private final Selectors selectors;
        private final Start start;
        private final Supplier<Map<AttributeSet, String>> current;
        private final UnaryOperator<String> render;
        private volatile WebSocket socket;

        OpenWatch(AttributeSet query, Selectors selectors, Start start,
                  Supplier<Map<AttributeSet, String>> current, UnaryOperator<String> render) {
            this.query = query;
            this.selectors = selectors;
            this.start = start;
            this.current = current;
            this.render = render;
        }

        @Override
        public void onOpen(WebSocket webSocket, Response response) {
            socket = webSocket;
            synchronized (storeMonitor) {
                String resourceVersion = start.resourceVersion();
                if (Boolean.TRUE.equals(start.sendInitialEvents())
                        || start.sendInitialEvents() == null && start.fromNow()) {
                    current.get().forEach((key, state) -> {
                        if (key.matches(query) && selected(state)) {
                            webSocket.send(event("ADDED", render.apply(state)));
                        }
                    });
                    if (Boolean.TRUE.equals(start.sendInitialEvents())) {
                        webSocket.send(initialEventsEnd());
                    }
                } else if (!start.fromNow()) {
                    long from;
                    try {
                        from = Long.parseLong(resourceVersion);
                    } catch (NumberFormatException e) {
                        webSocket.send(error(400, "BadRequest", "invalid resourceVersion: " + resourceVersion));
                        webSocket.close(1000, "invalid resourceVersion");
                        return;
                    }
                    if (from < forgottenUpTo) {
                        webSocket.send(error(410, "Expired",
                                "too old resource version: " + from + " (" + (forgottenUpTo + 1) + ")"));
                        webSocket.close(1000, "too old resource version");
                        return;
                    }
                    for (Change change : recent) {
                        if (change.resourceVersion() > from) {
                            send(change);
                        }
                    }
                }
                open.add(this);
            }
        }

        /**
         * The bookmark that ends a streaming list: not subject to the selectors, and never rendered as a Table row
         * (kube-apiserver sends it as it is).
         */
        private String initialEventsEnd() {
            ObjectNode bookmark = JsonNodeFactory.instance.objectNode().put("kind", start.kind())
                    .put("apiVersion", start.apiVersion());
            ObjectNode metadata = bookmark.putObject("metadata").put("resourceVersion", String.valueOf(newest));
            metadata.putObject("annotations").put(INITIAL_EVENTS_END, "true");
            return event("BOOKMARK", bookmark.toString());
        }

        /** The event, if any, that a change is for this watch. */
        void send(Change change) {
            boolean was = change.oldKey() != null && change.oldKey().matches(query) && selected(change.oldState());
            boolean is = change.newKey() != null && change.newKey().matches(query) && selected(change.newState());
            if (was && is) {
                socket.send(event("MODIFIED", render.apply(change.newState())));
            } else if (was) {
                socket.send(event("DELETED", render.apply(change.newState() != null ? change.newState() : change.oldState())));
            } else if (is) {
                socket.send(event("ADDED", render.apply(change.newState())));
            }
        }

        private boolean selected(String state) {
            return selectors.isEmpty() || selectors.matches(Json.stored(state));
        }

        /** Stops sending to this watch and closes its socket. */
        void end() {
            open.remove(this);
            try {
                socket.close(1011, "the watch could not be sent a change");
            } catch (RuntimeException alreadyClosed) {
                // Nothing more to close.
            }
        }

        @Override
        public void onClosing(WebSocket webSocket, int code, String reason) {
            open.remove(this);
            webSocket.close(code, reason);
        }

        @Override
        public void onClosed(WebSocket webSocket, int code, String reason) {
            open.remove(this);
        }

        @Override
        public void onFailure(WebSocket webSocket, Throwable error, Response response) {
            open.remove(this);
            webSocket.close(1000, String.valueOf(error.getMessage()));
        }
    }

    /** A watch event around an object that is already JSON: no parse and write per watcher. */
    private static String event(String type, String object) {
        return "{\"type\":\"" + type + "\",\"object\":" + object + "}";
    }

    private static String error(int code, String reason, String message) {
        JsonNode status = JsonNodeFactory.instance.objectNode().put("kind", "Status").put("apiVersion", "v1")
                .put("status", "Failure").put("message", message).put("reason", reason).put("code", code);
        return "{\"type\":\"ERROR\",\"object\":" + status + "}";
    }
}
