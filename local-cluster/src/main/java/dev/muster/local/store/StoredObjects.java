package dev.muster.local.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.http.MockResponse;

import java.util.List;
import java.util.Optional;

/**
 * The emulator's objects as seen by the operations added on top of the stock CRUD dispatcher. Writes go
 * through the dispatcher's own POST and PUT handling, so they get its validation, optimistic locking,
 * resourceVersion, generation and watch events.
 */
public interface StoredObjects {

    /** The object at an API path (a trailing {@code /status} is allowed), if it exists. */
    Optional<ObjectNode> get(String path);

    /** The objects of the collection at an API path (e.g. one kind in one namespace). */
    List<ObjectNode> list(String collectionPath);

    /** Replaces the object at an API path as a PUT would; {@code /status} paths replace only the status. */
    MockResponse replace(String path, JsonNode object);

    /**
     * Replaces a pod's spec and status in one write, as the API server's own binding does; a client's write to
     * the main resource would keep the stored status.
     */
    MockResponse replaceSpecAndStatus(String path, JsonNode object);

    /** Creates an object in the collection at an API path as a POST would. */
    MockResponse create(String collectionPath, JsonNode object);
}
