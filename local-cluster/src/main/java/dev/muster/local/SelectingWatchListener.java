package dev.muster.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Narrows a stock watch of a whole collection to the objects matching {@link Selectors}, with the API server's
 * semantics: an object that starts matching arrives as ADDED, one that stops matching as DELETED. It wraps the
 * stock listener and filters the events that listener sends through the web socket.
 */
final class SelectingWatchListener extends WebSocketListener {
    private final WebSocketListener stock;
    private final Selectors selectors;
    /** uid (or namespace/name) of every object the watcher was last told matches. */
    private final Set<String> matching = ConcurrentHashMap.newKeySet();
    private volatile SelectingWebSocket socket;

    SelectingWatchListener(WebSocketListener stock, Selectors selectors) {
        this.stock = stock;
        this.selectors = selectors;
    }

    @Override
    public void onBeforeAccept(WebSocket webSocket, Response response) {
        stock.onBeforeAccept(wrap(webSocket), response);
    }

    @Override
    public void onOpen(WebSocket webSocket, Response response) {
        stock.onOpen(wrap(webSocket), response);
    }

    @Override
    public void onMessage(WebSocket webSocket, String text) {
        stock.onMessage(wrap(webSocket), text);
    }

    @Override
    public void onMessage(WebSocket webSocket, byte[] bytes) {
        stock.onMessage(wrap(webSocket), bytes);
    }

    @Override
    public void onClosing(WebSocket webSocket, int code, String reason) {
        stock.onClosing(wrap(webSocket), code, reason);
    }

    @Override
    public void onClosed(WebSocket webSocket, int code, String reason) {
        stock.onClosed(wrap(webSocket), code, reason);
    }

    @Override
    public void onFailure(WebSocket webSocket, Throwable error, Response response) {
        stock.onFailure(wrap(webSocket), error, response);
    }

    private WebSocket wrap(WebSocket webSocket) {
        SelectingWebSocket current = socket;
        if (current == null || current.delegate != webSocket) {
            current = new SelectingWebSocket(webSocket);
            socket = current;
        }
        return current;
    }

    /** Rewrites or drops each watch event on its way out. */
    private String select(String event) {
        ObjectNode parsed = Json.stored(event);
        JsonNode object = parsed.path("object");
        JsonNode metadata = object.path("metadata");
        String key = metadata.path("uid").asText(metadata.path("namespace").asText() + "/" + metadata.path("name").asText());
        String type = parsed.path("type").asText();
        boolean was = matching.contains(key);
        boolean is = !type.equals("DELETED") && selectors.matches(object);
        if (is) {
            matching.add(key);
        } else {
            matching.remove(key);
        }
        String selectedType;
        if (type.equals("ADDED") || type.equals("MODIFIED") || type.equals("DELETED")) {
            selectedType = is ? (was ? "MODIFIED" : "ADDED") : (was ? "DELETED" : null);
        } else {
            selectedType = type;
        }
        if (selectedType == null) {
            return null;
        }
        return selectedType.equals(type) ? event : Serialization.asJson(parsed.put("type", selectedType));
    }

    private final class SelectingWebSocket implements WebSocket {
        private final WebSocket delegate;

        SelectingWebSocket(WebSocket delegate) {
            this.delegate = delegate;
        }

        @Override
        public RecordedRequest request() {
            return delegate.request();
        }

        @Override
        public boolean send(String text) {
            String selected = select(text);
            return selected == null || delegate.send(selected);
        }

        @Override
        public boolean send(byte[] bytes) {
            return delegate.send(bytes);
        }

        @Override
        public boolean close(int code, String reason) {
            return delegate.close(code, reason);
        }
    }
}
