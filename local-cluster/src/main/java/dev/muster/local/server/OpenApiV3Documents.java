package dev.muster.local.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.local.protocol.RequestQuery;
import dev.muster.local.protocol.StatusResponses;
import io.fabric8.mockwebserver.http.MockResponse;

import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * {@code GET /openapi/v3} and {@code /openapi/v3/apis/<group>/<version>}, as kube-apiserver serves them
 * (<a href="https://github.com/kubernetes/kube-openapi/tree/master/pkg/handler3">handler3</a>): the first maps each
 * group-version to the URL of its document, with the document's content hash as query, which clients cache
 * under; the second is the document ({@link CrdOpenApiDocument}).
 *
 * <p>Only the group-versions of stored CRDs are published. Built-in kinds are not: kubectl's client-side apply
 * computes a built-in kind's strategic merge patch from its group-version's document when it is listed, and a
 * document of their types alone, without the patch strategies and merge keys of their lists (a pod's containers,
 * their env), would make it replace lists it merges now from its compiled-in types.
 */
final class OpenApiV3Documents {
    private static final String PREFIX = "/openapi/v3";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME;

    /** A group-version's document as served, and the CRD versions it was built from. */
    private record Built(Set<String> from, byte[] json, String hash) {
    }

    private final Supplier<List<JsonNode>> crds;
    private final Map<String, Built> built = new ConcurrentHashMap<>();

    /** @param crds the stored CustomResourceDefinitions, as JSON */
    OpenApiV3Documents(Supplier<List<JsonNode>> crds) {
        this.crds = crds;
    }

    /** Whether {@code path} (without query) is one this class answers. */
    static boolean isOpenApiV3(String path) {
        return path.equals(PREFIX) || path.equals(PREFIX + "/") || path.startsWith(PREFIX + "/");
    }

    /**
     * The answer to a GET.
     *
     * @param pathWithQuery the request's path and query ({@code hash} is read from it)
     * @param accept        the request's {@code Accept} header; only JSON is served
     * @param ifNoneMatch   the request's {@code If-None-Match} header
     */
    MockResponse answer(String pathWithQuery, String accept, String ifNoneMatch) {
        int query = pathWithQuery.indexOf('?');
        String path = (query < 0 ? pathWithQuery : pathWithQuery.substring(0, query)).replaceAll("/+$", "");
        Map<String, Built> current = current();
        if (path.equals(PREFIX)) {
            ObjectNode discovery = JSON.createObjectNode();
            ObjectNode paths = discovery.putObject("paths");
            current.forEach((groupVersion, document) -> paths.putObject(groupVersion)
                    .put("serverRelativeURL", serverRelativeUrl(groupVersion, document.hash())));
            byte[] json = bytes(discovery);
            return served(json, hash(json), ifNoneMatch);
        }
        String groupVersion = path.substring(PREFIX.length() + 1);
        Built document = current.get(groupVersion);
        if (document == null) {
            return StatusResponses.pathNotFound();
        }
        if (!acceptsJson(accept)) {
            return new MockResponse().setResponseCode(406);
        }
        String hash = RequestQuery.parameter(pathWithQuery, "hash").orElse("");
        if (!hash.isEmpty() && !hash.equals(document.hash())) {
            // An old hash: kube-apiserver redirects to the document's current URL.
            return new MockResponse().setResponseCode(HttpURLConnection.HTTP_MOVED_PERM)
                    .setHeader("Location", serverRelativeUrl(groupVersion, document.hash()));
        }
        MockResponse response = served(document.json(), document.hash(), ifNoneMatch);
        response.setHeader("Vary", "Accept");
        if (!hash.isEmpty()) {
            // The URL names its content: clients may keep it as long as they like.
            response.setHeader("Cache-Control", "public, immutable");
            response.setHeader("Expires", HTTP_DATE.format(ZonedDateTime.now(ZoneOffset.UTC).plusYears(1)));
        }
        return response;
    }

    /**
     * Every published group-version's document, rebuilt only for those whose CRDs changed since the last request
     * (a CRD's uid and resourceVersion change with every write).
     */
    private Map<String, Built> current() {
        List<JsonNode> stored = crds.get();
        Map<String, Set<String>> sources = new TreeMap<>();
        for (JsonNode crd : stored) {
            String group = crd.path("spec").path("group").asText();
            for (JsonNode version : crd.path("spec").path("versions")) {
                if (version.path("served").asBoolean()) {
                    sources.computeIfAbsent("apis/" + group + "/" + version.path("name").asText(), gv -> new TreeSet<>())
                            .add(crd.path("metadata").path("uid").asText() + "@"
                                    + crd.path("metadata").path("resourceVersion").asText());
                }
            }
        }
        built.keySet().retainAll(sources.keySet());
        Map<String, Built> current = new TreeMap<>();
        sources.forEach((groupVersion, from) -> current.put(groupVersion, built.compute(groupVersion,
                (gv, cached) -> cached != null && cached.from().equals(from) ? cached : build(gv, from, stored))));
        return current;
    }

    private static Built build(String groupVersion, Set<String> from, List<JsonNode> crds) {
        String[] parts = groupVersion.split("/");
        byte[] json = bytes(CrdOpenApiDocument.of(parts[1], parts[2], crds));
        return new Built(from, json, hash(json));
    }

    private static MockResponse served(byte[] json, String hash, String ifNoneMatch) {
        String etag = "\"" + hash + "\"";
        if (etag.equals(ifNoneMatch)) {
            return new MockResponse().setResponseCode(HttpURLConnection.HTTP_NOT_MODIFIED).setHeader("ETag", etag);
        }
        return new MockResponse().setResponseCode(HttpURLConnection.HTTP_OK).setHeader("Content-Type", "application/json")
                .setHeader("ETag", etag).setBody(new String(json, StandardCharsets.UTF_8));
    }

    private static boolean acceptsJson(String accept) {
        if (accept == null || accept.isBlank()) {
            return true;
        }
        for (String clause : accept.split(",")) {
            String type = clause.split(";")[0].trim();
            if (type.equals("application/json") || type.equals("application/*") || type.equals("*/*")) {
                return true;
            }
        }
        return false;
    }

    private static String serverRelativeUrl(String groupVersion, String hash) {
        return PREFIX + "/" + groupVersion + "?hash=" + URLEncoder.encode(hash, StandardCharsets.UTF_8);
    }

    /** kube-apiserver's: SHA-512 of the document, in upper-case hex. */
    private static String hash(byte[] json) {
        try {
            return HexFormat.of().withUpperCase().formatHex(MessageDigest.getInstance("SHA-512").digest(json));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-512", e);
        }
    }

    private static byte[] bytes(JsonNode document) {
        try {
            return JSON.writeValueAsBytes(document);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
