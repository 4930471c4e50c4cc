package dev.muster.local.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.local.protocol.Json;
import dev.muster.local.protocol.StatusResponses;
import dev.muster.local.store.Selectors;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

import java.net.HttpURLConnection;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * List and delete-collection requests that carry {@link Selectors}: the stock dispatcher answers the
 * request without its selectors and the answer is narrowed here.
 */
final class SelectedCollections {
    private final Function<RecordedRequest, MockResponse> stock;

    /** @param stock the stock dispatcher's answer to a request */
    SelectedCollections(Function<RecordedRequest, MockResponse> stock) {
        this.stock = stock;
    }

    /** A list or a watch of the matching objects. */
    MockResponse get(RecordedRequest request, Selectors selectors) {
        MockResponse response = stock.apply(withoutSelectors(request));
        if (response.code() != HttpURLConnection.HTTP_OK) {
            return response;
        }
        ObjectNode list = read(response);
        ArrayNode items = list.withArrayProperty("items");
        for (int i = items.size() - 1; i >= 0; i--) {
            if (!selectors.matches(items.get(i))) {
                items.remove(i);
            }
        }
        return StatusResponses.json(HttpURLConnection.HTTP_OK, list);
    }

    /**
     * Deletes the matching objects of the collection at {@code collectionPath} (without query) one by one, so
     * that each gets the usual graceful deletion, finalizer handling and cascading deletion.
     *
     * @param deleteByPath deletes the object at an API path as the request asks
     * @return the list of objects as they were before deletion
     */
    MockResponse delete(RecordedRequest request, String collectionPath, Selectors selectors, Consumer<String> deleteByPath) {
        MockResponse listed = get(new RecordedRequest(request.getHttpVersion(), HttpMethod.GET,
                request.getPath(), request.getHeaders(), null), selectors);
        if (listed.code() != HttpURLConnection.HTTP_OK) {
            return listed;
        }
        ObjectNode list = read(listed);
        for (JsonNode item : list.path("items")) {
            deleteByPath.accept(collectionPath + "/" + item.path("metadata").path("name").asText());
        }
        return StatusResponses.json(HttpURLConnection.HTTP_OK, list);
    }

    private static RecordedRequest withoutSelectors(RecordedRequest request) {
        return new RecordedRequest(request.getHttpVersion(), request.method(),
                Selectors.withoutSelectors(request.getPath()), request.getHeaders(), request.getBody());
    }

    private static ObjectNode read(MockResponse response) {
        return Json.stored(response.getBody().getBytes());
    }
}
