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

    /** Every value of the parameter, decoded, in order; empty if the path has none. */
    public static List<String> values(String pathWithQuery, String name) {
        if (pathWithQuery == null || pathWithQuery.indexOf('?') < 0) {
            return List.of();
        }
        List<String> values = new QueryStringDecoder(pathWithQuery).parameters().get(name);
        return values == null ? List.of() : List.copyOf(values);
    }

    /**
     * A boolean parameter read as kube-apiserver reads one: {@code 0} and {@code false} in any case are false, any
     * other value, an empty one included, is true ({@code watch=True} from the Python client, {@code watch=1}); empty
     * if the path has none.
     */
    public static Optional<Boolean> flag(String pathWithQuery, String name) {
        return parameter(pathWithQuery, name).map(value -> !(value.equals("0") || value.equalsIgnoreCase("false")));
    }

    /** Whether the request asks to watch. */
    public static boolean isWatch(String pathWithQuery) {
        return flag(pathWithQuery, "watch").orElse(false);
    }
}
