package dev.muster.local.server;

import dev.muster.local.protocol.StatusResponses;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import io.fabric8.mockwebserver.vertx.ServerWebSocketHandler;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;

import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The emulator's HTTP server, on vert.x as fabric8's mock web server is, with what a real API server's clients
 * need and that server lacks: watches streamed over plain HTTP, one JSON event per line, which is how kubectl
 * ({@code get -w}, {@code wait}) and client-go watch, besides the web socket watches of the fabric8 client; and
 * no per-request bookkeeping (the mock web server queues every request and formats it for its log). Requests
 * go to a {@link Dispatcher}, as in the mock server, so the dispatchers are unchanged.
 */
final class ApiHttpServer implements AutoCloseable {
    /** The sub-protocols kubectl and the fabric8 client offer for exec, attach and port-forward. */
    private static final List<String> WEBSOCKET_SUB_PROTOCOLS =
            List.of("v1.channel.k8s.io", "v2.channel.k8s.io", "v3.channel.k8s.io", "v4.channel.k8s.io");

    private final Vertx vertx;
    private final HttpServer server;
    private final Dispatcher dispatcher;

    private ApiHttpServer(Vertx vertx, HttpServer server, Dispatcher dispatcher) {
        this.vertx = vertx;
        this.server = server;
        this.dispatcher = dispatcher;
    }

    /** Serves {@code dispatcher} on a free port of {@code host}. */
    static ApiHttpServer start(String host, Dispatcher dispatcher) {
        Vertx vertx = Vertx.vertx();
        // No h2c: the JDK client offers an HTTP/2 upgrade over plain HTTP, which kube-apiserver (TLS only) never takes.
        HttpServer server = vertx.createHttpServer(new HttpServerOptions().setHost(host).setPort(0)
                .setAlpnVersions(List.of(HttpVersion.HTTP_1_1)).setWebSocketSubProtocols(WEBSOCKET_SUB_PROTOCOLS)
                .setHandle100ContinueAutomatically(true).setHttp2ClearTextEnabled(false));
        ApiHttpServer api = new ApiHttpServer(vertx, server, dispatcher);
        server.requestHandler(api::handle);
        await(server.listen(), "the API emulator could not listen on " + host);
        return api;
    }

    int port() {
        return server.actualPort();
    }

    private void handle(HttpServerRequest request) {
        // A request to upgrade to a web socket must not have its body read, or the upgrade fails.
        Future<io.vertx.core.buffer.Buffer> read = hasBody(request) ? request.body() : Future.succeededFuture();
        read.onFailure(error -> fail(request.response(), error)).onSuccess(body -> {
            RecordedRequest recorded = new RecordedRequest(request.version().alpnName().toUpperCase(Locale.ROOT),
                    HttpMethod.fromVertx(request.method()), request.uri(),
                    Headers.builder().addAll(request.headers()).build(),
                    new Buffer(body == null || body.length() == 0 ? null : body.getBytes()));
            MockResponse response;
            try {
                response = dispatcher.dispatch(recorded);
            } catch (RuntimeException e) {
                fail(request.response(), e);
                return;
            }
            if (response.getWebSocketListener() == null) {
                respond(request.response(), response);
            } else if ("websocket".equalsIgnoreCase(request.getHeader("Upgrade"))) {
                request.toWebSocket().onFailure(error -> fail(request.response(), error))
                        .onSuccess(new ServerWebSocketHandler(recorded, response));
            } else {
                stream(request, recorded, response);
            }
        });
    }

    private static boolean hasBody(HttpServerRequest request) {
        String length = request.getHeader("Content-Length");
        return length != null ? !length.isBlank() && !length.trim().equals("0")
                : request.getHeader("Transfer-Encoding") != null || request.getHeader("Content-Type") != null;
    }

    private static void respond(HttpServerResponse out, MockResponse response) {
        out.setStatusCode(response.code());
        response.getHeaders().toMultimap().forEach((name, values) -> out.headers().add(name, values));
        if (response.getBody() != null && response.getBody().size() > 0) {
            out.send(io.vertx.core.buffer.Buffer.buffer(response.getBody().getBytes()));
        } else {
            out.end();
        }
    }

    /**
     * A watch over plain HTTP: the events the watch's listener would send through a web socket are written
     * as lines of a chunked response, which ends when the watch closes, when the client goes away, or after
     * the request's {@code timeoutSeconds}, as on the API server.
     */
    private void stream(HttpServerRequest request, RecordedRequest recorded, MockResponse response) {
        HttpServerResponse out = request.response();
        out.setStatusCode(HttpURLConnection.HTTP_OK).setChunked(true).putHeader("Content-Type", "application/json");
        WebSocketListener listener = response.getWebSocketListener();
        HttpStream stream = new HttpStream(recorded, out);
        out.closeHandler(ignored -> listener.onClosed(stream, 1000, "the client went away"));
        long timeout = timeoutSeconds(request.getParam("timeoutSeconds"));
        if (timeout > 0) {
            vertx.setTimer(TimeUnit.SECONDS.toMillis(timeout), id -> {
                if (stream.close(1000, "timeoutSeconds is over")) {
                    listener.onClosed(stream, 1000, "timeoutSeconds is over");
                }
            });
        }
        // The API server answers a watch at once; clients (kubectl wait) wait for the headers before they go on.
        out.write(io.vertx.core.buffer.Buffer.buffer());
        listener.onOpen(stream, response);
    }

    private static long timeoutSeconds(String parameter) {
        try {
            return parameter == null ? 0 : Long.parseLong(parameter);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static void fail(HttpServerResponse out, Throwable error) {
        if (!out.headWritten()) {
            respond(out, StatusResponses.internalError(String.valueOf(error.getMessage())));
        }
    }

    @Override
    public void close() {
        await(server.close(), "the API emulator did not close");
        await(vertx.close(), "the API emulator's event loops did not stop");
    }

    private static void await(Future<?> future, String failure) {
        CompletableFuture<Object> done = new CompletableFuture<>();
        future.onComplete(result -> {
            if (result.succeeded()) {
                done.complete(result.result());
            } else {
                done.completeExceptionally(result.cause());
            }
        });
        try {
            done.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(failure, e);
        }
    }

    /** The response of a streamed watch, seen by the watch's listener as the web socket it writes to. */
    private static final class HttpStream implements WebSocket {
        private final RecordedRequest request;
        private final HttpServerResponse out;
        private final AtomicBoolean ended = new AtomicBoolean();

        HttpStream(RecordedRequest request, HttpServerResponse out) {
            this.request = request;
            this.out = out;
        }

        @Override
        public RecordedRequest request() {
            return request;
        }

        @Override
        public boolean send(String text) {
            if (ended.get() || out.closed()) {
                return false;
            }
            out.write(text + "\n");
            return true;
        }

        @Override
        public boolean send(byte[] bytes) {
            return send(new String(bytes, StandardCharsets.UTF_8));
        }

        /** Ends the response; whether this call ended it. */
        @Override
        public boolean close(int code, String reason) {
            if (!ended.compareAndSet(false, true)) {
                return false;
            }
            if (!out.ended() && !out.closed()) {
                out.end();
            }
            return true;
        }
    }
}
