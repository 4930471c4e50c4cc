package dev.muster.local.protocol;

import io.netty.handler.codec.http.QueryStringDecoder;

import java.util.List;
import java.util.Optional;

/**
 * The query parameters of a request path ({@code ?watch=true&resourceVersion=5}), decoded by Netty's
 * {@link QueryStringDecoder}, which the emulator's HTTP server (vert.x) already brings. One place for the
 * emulator's parts that read a parameter or two.
 */
public final class RequestQuery {
    private RequestQuery() {
    }

    /** The first value of the parameter, decoded; empty if the path has none. */
    public static Optional<String> parameter(String pathWithQuery, String name) {
        if (pathWithQuery == null || pathWithQuery.indexOf('?') < 0) {
            return Optional.empty();
        }
        List<String> values = new QueryStringDecoder(pathWithQuery).parameters().get(name);
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }

    /** Whether the request asks to watch ({@code watch=true}, or {@code 1} as the API server also accepts). */
    public static boolean isWatch(String pathWithQuery) {
        return parameter(pathWithQuery, "watch").filter(v -> v.equals("true") || v.equals("1")).isPresent();
    }
}
