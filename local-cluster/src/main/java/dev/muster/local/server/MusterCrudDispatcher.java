package dev.muster.local.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.api.LimitRangeDefaults;
import dev.muster.local.admission.ClaimDefaults;
import dev.muster.local.admission.CrdAdmission;
import dev.muster.local.admission.FieldValidation;
import dev.muster.local.admission.LimitRanger;
import dev.muster.local.admission.MicroTimes;
import dev.muster.local.admission.ModelFields;
import dev.muster.local.admission.PodDefaults;
import dev.muster.local.admission.PodSecurity;
import dev.muster.local.admission.PodValidation;
import dev.muster.local.admission.PodWarnings;
import dev.muster.local.admission.PriorityAdmission;
import dev.muster.local.disruption.EvictionSubresource;
import dev.muster.local.protocol.FieldError;
import dev.muster.local.protocol.Json;
import dev.muster.local.protocol.KubernetesProtobuf;
import dev.muster.local.protocol.RequestQuery;
import dev.muster.local.protocol.StatusResponses;
import dev.muster.local.quota.QuotaAdmission;
import dev.muster.local.store.CascadingDeleter;
import dev.muster.local.store.DeleteRequest;
import dev.muster.local.store.Deletion;
import dev.muster.local.store.GeneratedNames;
import dev.muster.local.store.JsonPatches;
import dev.muster.local.store.ListTypes;
import dev.muster.local.store.ManagedFields;
import dev.muster.local.store.ObjectIndex;
import dev.muster.local.store.OwnerIndex;
import dev.muster.local.store.Selectors;
import dev.muster.local.store.StoredObjects;
import dev.muster.local.store.WatchHub;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionList;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * fabric8's CRUD dispatcher extended with what a cluster needs beyond storage: pod binding, eviction
 * ({@link EvictionSubresource}, PodDisruptionBudgets respected), graceful and
 * cascading deletion ({@link Deletion}), the fields an update cannot change (a pod's status, the deletion
 * marks), pod defaults, validation and unknown fields ({@link PodValidation}, {@link ModelFields}), dry runs
 * ({@link DryRun}), RFC-conformant merge patches, server-side apply and the managedFields of every write
 * ({@link ManagedFields}), full label and field selectors, discovery, kubectl's
 * Tables, the admission of custom resources against their stored CRDs ({@link CrdAdmission}), and
 * {@code Status} bodies like the API server's. Storage, uid, resourceVersion, generation, optimistic
 * locking of updates and the status subresources of registered CRDs are the stock dispatcher's.
 */
public final class MusterCrudDispatcher extends KubernetesCrudDispatcher {
    private static final String CRDS_PATH = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    private static final String PRIORITY_CLASS_GROUP = "scheduling.k8s.io";
    private static final String PRIORITY_CLASSES_PATH = "/apis/" + PRIORITY_CLASS_GROUP + "/v1/priorityclasses";
    private static final String CONTENT_TYPE = "Content-Type";
    private static final String STATUS_SUFFIX = "/status";
    private static final String DEFAULT_NAMESPACE_PATH = "/api/v1/namespaces/default";
    private static final String DELETION_TIMESTAMP = "deletionTimestamp";
    private static final String DELETION_GRACE_PERIOD = "deletionGracePeriodSeconds";

    /**
     * Binding, merge patches, status replacements, pod updates and deletions read, check and write in one step.
     * They hold the write side, every other request the read side, because the stock dispatcher's own lock is
     * private and covers one call only.
     */
    private final ReadWriteLock requestLock = new ReentrantReadWriteLock();
    private final StoredObjects store = new Store();
    private final ServedResources served = new ServedResources(this::storedCrds, this::storedCrdDefinition);
    private final DiscoveryDocuments discovery = new DiscoveryDocuments(served);
    private final OpenApiV3Documents openApiV3 = new OpenApiV3Documents(this::storedCrdDocuments);
    private final ServerSideTables tables = new ServerSideTables(this::storedCrds);
    /** Stored CRDs decoded, by name, with the stored document they were decoded from (replaced by every write). */
    private final Map<String, Map.Entry<String, CustomResourceDefinition>> decodedCrds = new ConcurrentHashMap<>();
    private final BindingSubresource binder = new BindingSubresource(store);
    private final EvictionSubresource evictions = new EvictionSubresource(store, this::delete, Clock.systemUTC());
    private final LogSubresource logs = new LogSubresource(store, Clock.systemUTC());
    private final MergePatchHandler mergePatches = new MergePatchHandler(store, this::listTypes, this::appliedBy);
    private final ClusterAccess access = new ClusterAccess();
    private final AccessReviews reviews = new AccessReviews(access);
    private final SelectedCollections selected = new SelectedCollections(super::dispatch);
    private final CrdAdmission admission = new CrdAdmission(this::storedCrd);
    private final ObjectIndex index = new ObjectIndex();
    private final OwnerIndex owners = new OwnerIndex();
    private final QuotaAdmission quotas = new QuotaAdmission(namespace -> storedIn(namespace, "resourcequotas"),
            namespace -> storedIn(namespace, "pods"), store, Clock.systemUTC());
    private final CascadingDeleter cascadingDeleter =
            new CascadingDeleter(owners::dependentsOf, () -> new ArrayList<>(map.keySet()), this::handleDelete);
    private final WatchHub watches;
    /**
     * The resourceVersion the store gave the write under way, which is the one its change is recorded at; 0 once
     * recorded, so that a write the store gave none (it changed nothing but the document's layout) is no change.
     * Writes are serialised by the stock dispatcher's lock.
     */
    private long unrecordedResourceVersion;
    /**
     * Whether the request this thread answers is a dry run ({@link DryRun}): it runs every step a write runs, but
     * what would change the store, its resourceVersion, its watches and indexes is skipped, as kube-apiserver's
     * dry-run storage skips etcd.
     */
    private final ThreadLocal<Boolean> dryRunning = ThreadLocal.withInitial(() -> false);
    /**
     * The manager kube would record for the request this thread answers: its {@code fieldManager}, else its
     * User-Agent up to the first '/'.
     */
    private final ThreadLocal<String> fieldManager = ThreadLocal.withInitial(() -> "");
    /** The managedFields an apply under way computed, which its write stores as they are. */
    private final ThreadLocal<ArrayNode> appliedManagedFields = new ThreadLocal<>();
    /** The API path of the update under way, which {@link #preserveMetadata} is not told. */
    private final ThreadLocal<String> updatedPath = new ThreadLocal<>();

    MusterCrudDispatcher(int watchHistory) {
        watches = new WatchHub(map, watchHistory);
    }

    @Override
    public MockResponse dispatch(RecordedRequest received) {
        RecordedRequest request = received;
        if (KubernetesProtobuf.isProtobuf(received.getHeader(CONTENT_TYPE)) && received.getBody() != null
                && received.getBody().size() > 0) {
            KubernetesProtobuf.Decoded decoded = KubernetesProtobuf.read(received.getBody().getBytes());
            if (decoded.json() == null) {
                return decoded.unsupportedKind() ? StatusResponses.unsupportedMediaType(decoded.problem())
                        : StatusResponses.badRequest(decoded.problem());
            }
            request = withNewBody(received, decoded.json());
        }
        String path = withoutQuery(request.getPath());
        DryRun dryRun = DryRun.of(request.method(), request.getPath(),
                request.getBody() == null ? null : request.getBody().getBytes());
        if (dryRun.refusal() != null) {
            return dryRun.refusal();
        }
        MockResponse response;
        try {
            dryRunning.set(dryRun.requested());
            fieldManager.set(managerOf(request));
            response = route(request, path);
        } finally {
            dryRunning.remove();
            fieldManager.remove();
            appliedManagedFields.remove();
            // Even after a failure: what was removed has dependents to delete, and the queue is this thread's.
            cascadingDeleter.drain();
        }
        if (response == null) {
            return StatusResponses.methodNotAllowed(request.getMethod());
        }
        boolean hasBody = response.getBody() != null && response.getBody().size() > 0;
        if (response.code() == HttpURLConnection.HTTP_NOT_FOUND && !hasBody) {
            return notFound(path);
        }
        if (response.code() == HttpURLConnection.HTTP_CONFLICT && hasBody) {
            return withConflictReason(response, request.method() == HttpMethod.POST ? "AlreadyExists" : "Conflict");
        }
        if (response.getWebSocketListener() != null || !hasBody) {
            return response;
        }
        if (request.method() == HttpMethod.GET && response.code() == HttpURLConnection.HTTP_OK
                && ServerSideTables.requested(request.getHeader("Accept"))) {
            return asTable(request, path, response);
        }
        return withJsonContentType(response);
    }

    private MockResponse route(RecordedRequest request, String path) {
        if (request.method() == HttpMethod.GET && OpenApiV3Documents.isOpenApiV3(path)) {
            return openApiV3.answer(request.getPath(), request.getHeader("Accept"), request.getHeader("If-None-Match"));
        }
        if (request.method() == HttpMethod.GET) {
            Optional<MockResponse> discovered = discovery.answer(path, request.getHeader("Accept"), request.getHeader("Host"));
            if (discovered.isPresent()) {
                return discovered.get();
            }
        }
        if (EventsV1View.isViewPath(path)) {
            return eventsV1(request);
        }
        if (request.method() == HttpMethod.POST && BindingSubresource.isBinding(path)) {
            return withBody(request, body -> locked(requestLock.writeLock(), () -> binder.bind(path, body)));
        }
        if (request.method() == HttpMethod.POST && EvictionSubresource.isEviction(path)) {
            return withBody(request, body -> locked(requestLock.writeLock(), () -> evictions.evict(path, body)));
        }
        if (LogSubresource.isLog(path)) {
            return request.method() == HttpMethod.GET
                    ? locked(requestLock.readLock(), () -> logs.get(path, request.getPath())) : null;
        }
        if (AccessReviews.isReview(path)) {
            return request.method() == HttpMethod.POST
                    ? reviews.review(path, request.getBody().getBytes(),
                    request.getHeader("Authorization")) : null;
        }
        Map<String, String> parsed = parse(path);
        Optional<ServedResources.Resource> resource = parsed.isEmpty() ? Optional.empty()
                : served.find(parsed.get(KubernetesAttributesExtractor.API),
                parsed.get(KubernetesAttributesExtractor.VERSION), parsed.get(KubernetesAttributesExtractor.PLURAL));
        if (resource.isEmpty()) {
            // Not a resource this emulator serves (nor in discovery): as kube-apiserver, 404. The stock dispatcher
            // would store anything, and answer a GET of a path that is no resource with every object it holds.
            return StatusResponses.pathNotFound();
        }
        if ((request.method() == HttpMethod.POST || request.method() == HttpMethod.PUT) && request.getBody() != null
                && bodyIsOfItsKind(path, resource.get())) {
            RequestTypeMeta typeMeta = RequestTypeMeta.of(request.getBody().getBytes(), resource.get());
            if (typeMeta.refusal() != null) {
                return typeMeta.refusal();
            }
            if (typeMeta.body().isPresent()) {
                return route(withNewBody(request, typeMeta.body().get()), path);
            }
        }
        switch (request.method()) {
            case GET -> {
                if (RequestQuery.isWatch(request.getPath())) {
                    return watch(request, resource.get());
                }
                if (isCollection(path)) {
                    long listedAt = watches.newestResourceVersion();
                    return typedList(resource.get(), listedAt, withSelectors(request, selectors ->
                            locked(requestLock.readLock(), () -> selected.get(request, selectors))));
                }
            }
            case DELETE -> {
                if (path.equals(DEFAULT_NAMESPACE_PATH)) {
                    // As the API server's NamespaceLifecycle admission does; everything assumes it exists.
                    return StatusResponses.forbidden("namespaces", "default", "this namespace may not be deleted");
                }
                DeleteRequest options;
                Selectors selectors;
                try {
                    options = DeleteRequest.of(request.getPath(),
                            request.getBody() == null ? null : request.getBody().getBytes());
                    selectors = Selectors.of(request.getPath());
                } catch (IllegalArgumentException e) {
                    return StatusResponses.badRequest(e.getMessage());
                }
                // Every deletion takes the write side: it reads, decides and writes in one step.
                return isCollection(path)
                        ? typedList(resource.get(), watches.newestResourceVersion(), locked(requestLock.writeLock(),
                                () -> selected.delete(request, path, selectors, item -> delete(item, options))))
                        : locked(requestLock.writeLock(), () -> delete(path, options));
            }
            case POST -> {
                if (PodDefaults.appliesTo(path)) {
                    FieldValidation validation = FieldValidation.of(request.getPath());
                    return withBody(request, body -> locked(requestLock.readLock(), () -> createPod(path, validation, body)));
                }
                if (ClaimDefaults.appliesTo(path) || ResourceClaimCreation.appliesTo(path)) {
                    return withBody(request, body -> locked(requestLock.readLock(), () -> create(path, body)));
                }
            }
            case PUT -> {
                // A pod's or claim's update copies the stored status into the object it writes: one step, as a status write.
                if (isPod(path)) {
                    FieldValidation validation = FieldValidation.of(request.getPath());
                    return withBody(request, body -> locked(requestLock.writeLock(), () -> replacePod(path, validation, body)));
                }
                if (path.endsWith(STATUS_SUFFIX) || keepsStoredStatus(path)) {
                    return withBody(request, body -> locked(requestLock.writeLock(), () -> store.replace(path, body)));
                }
            }
            case PATCH -> {
                Optional<MergePatchHandler.Flavour> flavour = MergePatchHandler.Flavour.of(request.getHeader(CONTENT_TYPE));
                if (flavour.isPresent()) {
                    String body = new String(request.getBody().getBytes(), StandardCharsets.UTF_8);
                    return locked(requestLock.writeLock(), () -> mergePatches.patch(path, request.getPath(), flavour.get(), body));
                }
            }
            default -> {
                // answered by the stock dispatcher below
            }
        }
        return locked(requestLock.readLock(), () -> super.dispatch(request));
    }

    /**
     * Whether a write to this path carries an object of the resource's kind: its collection, one object, or its
     * {@code status}; other subresources take other kinds (a {@code token} a TokenRequest, a {@code scale} a Scale).
     */
    private static boolean bodyIsOfItsKind(String path, ServedResources.Resource resource) {
        String[] segments = path.replaceAll("^/+|/+$", "").split("/");
        int plural = segments[0].equals("api") ? 2 : 3;
        if (resource.namespaced() && segments.length > plural + 1 && segments[plural].equals("namespaces")) {
            plural += 2;
        }
        int after = segments.length - plural - 1;
        return after == 0 || after == 1 || after == 2 && segments[segments.length - 1].equals("status");
    }

    /** The users and the authorizer the review APIs answer with. */
    ClusterAccess access() {
        return access;
    }

    /** Every create, whatever its route, passes the admission of custom resources first. */
    @Override
    public MockResponse handleCreate(RecordedRequest request) {
        Function<RecordedRequest, MockResponse> write = dryRunning.get() ? this::dryRunCreate : super::handleCreate;
        return admit(withGeneratedName(request), path -> Optional.empty(), admitted -> write.apply(withManagedFields(admitted)));
    }

    /** A create's body with the managedFields of its creator, or those of the apply that creates it. */
    private RecordedRequest withManagedFields(RecordedRequest request) {
        JsonNode body;
        try {
            body = Json.parse(request.getBody().getBytes());
        } catch (IOException e) {
            // The stock handler answers a body that is not JSON.
            return request;
        }
        if (!(body.path("metadata") instanceof ObjectNode metadata)) {
            return request;
        }
        ArrayNode applied = appliedManagedFields.get();
        String path = withoutQuery(request.getPath());
        metadata.set("managedFields", applied != null ? applied : ManagedFields.update(null, body,
                ManagedFields.Manager.update(fieldManager.get(), body.path("apiVersion").asText(""), ""),
                listTypes(path), Instant.now()));
        return withNewBody(request, body);
    }

    /**
     * The name kube gives the manager of a write that names none: the User-Agent's first token up to '/', at
     * most 128 printable characters.
     */
    private static String managerOf(RecordedRequest request) {
        List<String> named = RequestQuery.values(request.getPath(), "fieldManager");
        if (!named.isEmpty() && !named.get(0).isEmpty()) {
            return named.get(0);
        }
        String agent = Objects.requireNonNullElse(request.getHeader("User-Agent"), "");
        String prefix = agent.split("/", 2)[0].codePoints().filter(c -> !Character.isISOControl(c))
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        return prefix.length() > 128 ? prefix.substring(0, 128) : prefix;
    }

    /** Told the managedFields of an apply before it writes them. */
    private void appliedBy(ArrayNode managedFields) {
        appliedManagedFields.set(managedFields);
    }

    /**
     * How apply treats the lists of the kind at a path: a custom resource's as its CRD's schema says, a built-in
     * kind's as {@link ListTypes#BUILT_IN}.
     */
    private ListTypes listTypes(String path) {
        Map<String, String> parsed = parse(path);
        String group = parsed.get(KubernetesAttributesExtractor.API);
        if (group == null || !group.contains(".")) {
            return ListTypes.BUILT_IN;
        }
        CustomResourceDefinition crd = storedCrdDefinition(parsed.get(KubernetesAttributesExtractor.PLURAL) + "." + group);
        String version = parsed.get(KubernetesAttributesExtractor.VERSION);
        return crd == null ? ListTypes.BUILT_IN : crd.getSpec().getVersions().stream()
                .filter(served -> served.getName().equals(version) && served.getSchema() != null)
                .findFirst().map(served -> ListTypes.of(served.getSchema().getOpenAPIV3Schema()))
                .orElse(ListTypes.BUILT_IN);
    }

    /**
     * The stock create, which stores nothing in a dry run, answering the object without the resourceVersion the
     * store never gave it: kube-apiserver's dry-run storage answers the object as it would be stored, with its uid,
     * creationTimestamp and generated name, but no resourceVersion.
     */
    private MockResponse dryRunCreate(RecordedRequest request) {
        MockResponse response = super.handleCreate(request);
        if (response.code() != HttpURLConnection.HTTP_CREATED || response.getBody() == null) {
            return response;
        }
        ObjectNode created = Json.stored(response.getBody().getBytes());
        created.withObjectProperty("metadata").remove("resourceVersion");
        return response.setBody(Serialization.asJson(created));
    }

    /**
     * Where creates and updates meet: a MicroTime Go cannot decode is refused as kube-apiserver refuses it, then
     * the Workload API's objects and pods' groups pass {@link WorkloadApiAdmission}, custom resources theirs.
     */
    private MockResponse admit(RecordedRequest request, Function<String, Optional<ObjectNode>> current,
                               Function<RecordedRequest, MockResponse> write) {
        Optional<String> undecodable = MicroTimes.refusal(request.getPath(),
                request.getBody() == null ? null : request.getBody().getBytes());
        if (undecodable.isPresent()) {
            return StatusResponses.badRequest(undecodable.get());
        }
        Optional<MockResponse> secondDefault = secondDefaultClass(request);
        if (secondDefault.isPresent()) {
            return secondDefault.get();
        }
        return WorkloadApiAdmission.admit(request, current, admitted -> admission.admit(admitted, current, write));
    }

    /** kube-apiserver's refusal of a PriorityClass written as a second global default ({@link PriorityAdmission}). */
    private Optional<MockResponse> secondDefaultClass(RecordedRequest request) {
        String path = withoutQuery(request.getPath());
        if (!path.startsWith(PRIORITY_CLASSES_PATH) || request.getBody() == null) {
            return Optional.empty();
        }
        JsonNode priorityClass;
        try {
            priorityClass = Json.parse(request.getBody().getBytes());
        } catch (IOException e) {
            // The stock handler answers a body that is not JSON.
            return Optional.empty();
        }
        return PriorityAdmission.classRefusal(priorityClass, storedIn(PRIORITY_CLASS_GROUP, "", "priorityclasses"))
                .map(refusal -> StatusResponses.forbidden("priorityclasses." + PRIORITY_CLASS_GROUP,
                        priorityClass.path("metadata").path("name").asText(), refusal));
    }

    /** The request with the name kube-apiserver would generate ({@link GeneratedNames}) when it asks for one. */
    private static RecordedRequest withGeneratedName(RecordedRequest request) {
        byte[] bytes = request.getBody() == null ? null : request.getBody().getBytes();
        if (bytes == null || !new String(bytes, StandardCharsets.UTF_8).contains("\"generateName\"")) {
            return request;
        }
        JsonNode body;
        try {
            body = Json.parse(bytes);
        } catch (IOException e) {
            // The stock handler answers a body that is not JSON.
            return request;
        }
        JsonNode named = GeneratedNames.named(body);
        return named == body ? request : withNewBody(request, named);
    }

    /** The same request, its query and other headers included, with another body, in JSON. */
    private static RecordedRequest withNewBody(RecordedRequest request, JsonNode body) {
        return new RecordedRequest(request.getHttpVersion(), request.method(), request.getPath(),
                request.getHeaders().newBuilder().set(CONTENT_TYPE, "application/json").build(),
                new Buffer(Serialization.asJson(body).getBytes(StandardCharsets.UTF_8)));
    }

    /** Every update, whatever its route (PUT, merge patches, status writes), passes the admission of custom resources first. */
    @Override
    public MockResponse handleUpdate(RecordedRequest request) {
        return update(withSystemFields(request));
    }

    /** An update as the request has it, past admission. */
    private MockResponse update(RecordedRequest request) {
        return admit(request, store::get, admitted -> {
            updatedPath.set(withoutQuery(admitted.getPath()));
            try {
                return super.handleUpdate(admitted);
            } finally {
                updatedPath.remove();
            }
        });
    }

    /**
     * Keeps what an update may not change, as the API server does. A write to a pod's or ResourceClaim's main resource keeps the
     * stored status, as for a CRD with a status subresource (the stock dispatcher knows only those; it is not told
     * about pods, as it would then drop the status a pod is created with). {@code deletionTimestamp} and
     * {@code deletionGracePeriodSeconds} stay the stored ones ({@link #preserveMetadata}). The stock handler
     * removes an object whose new version is marked for deletion and has no finalizers; that is right only for the
     * update that removes the last finalizer of an object with no grace period left, so the mark is taken off
     * every other update (and put back by {@link #preserveMetadata}): a status write to a Terminating pod must not
     * remove it.
     */
    private RecordedRequest withSystemFields(RecordedRequest request) {
        String path = withoutQuery(request.getPath());
        boolean statusWrite = path.endsWith(STATUS_SUFFIX);
        boolean mainResourceWrite = !statusWrite && keepsStoredStatus(path);
        byte[] bytes = request.getBody() == null ? null : request.getBody().getBytes();
        if (bytes == null
                || !mainResourceWrite && !new String(bytes, StandardCharsets.UTF_8).contains("\"" + DELETION_TIMESTAMP + "\"")) {
            return request;
        }
        JsonNode body;
        try {
            body = Json.parse(bytes);
        } catch (IOException e) {
            // The stock handler answers a body that is not JSON.
            return request;
        }
        Optional<ObjectNode> current = store.get(path);
        if (!body.path("metadata").isObject() || current.isEmpty()) {
            return request;
        }
        ObjectNode object = (ObjectNode) body;
        if (mainResourceWrite) {
            JsonNode status = current.get().get("status");
            if (status == null) {
                object.remove("status");
            } else {
                object.set("status", status.deepCopy());
            }
        }
        if (statusWrite || !Deletion.completedBy(current.get(), body)) {
            ((ObjectNode) body.path("metadata")).remove(List.of(DELETION_TIMESTAMP, DELETION_GRACE_PERIOD));
        }
        return withNewBody(request, body);
    }

    /**
     * The stock metadata an update keeps, and the deletion fields, which only a DELETE sets. The stock code copies
     * the stored namespace even where there is none, which gave cluster-scoped objects {@code namespace: null}.
     */
    @Override
    public void preserveMetadata(JsonNode currentResource, JsonNode updatedResource) {
        super.preserveMetadata(currentResource, updatedResource);
        ObjectNode updated = (ObjectNode) updatedResource.get("metadata");
        JsonNode current = currentResource.path("metadata");
        if (updated.path("namespace").isNull()) {
            updated.remove("namespace");
        }
        for (String field : List.of(DELETION_TIMESTAMP, DELETION_GRACE_PERIOD)) {
            if (current.hasNonNull(field)) {
                updated.set(field, current.get(field).deepCopy());
            } else {
                updated.remove(field);
            }
        }
        String path = updatedPath.get();
        if (path != null) {
            ArrayNode applied = appliedManagedFields.get();
            updated.set("managedFields", applied != null ? applied : ManagedFields.update(currentResource, updatedResource,
                    ManagedFields.Manager.update(fieldManager.get(), updatedResource.path("apiVersion").asText(""),
                            path.endsWith(STATUS_SUFFIX) ? "status" : ""), listTypes(path), Instant.now()));
        }
    }

    /**
     * Deletes the object at {@code path} (without query) as {@link Deletion} decides: removes it, marks it for
     * deletion, or leaves it as it is. The caller holds the write side of the request lock.
     */
    private MockResponse delete(String path, DeleteRequest options) {
        AttributeSet pathAttributes = getKey(path);
        Map.Entry<AttributeSet, String> found = findResource(pathAttributes);
        if (found == null) {
            return new MockResponse().setResponseCode(HttpURLConnection.HTTP_NOT_FOUND);
        }
        ObjectNode stored = Json.stored(found.getValue());
        String refused = options.preconditionFailure(stored);
        if (refused != null) {
            Map<String, String> parsed = parse(path);
            return StatusResponses.conflict(parsed.get(KubernetesAttributesExtractor.PLURAL),
                    parsed.get(KubernetesAttributesExtractor.NAME), refused);
        }
        Deletion.Outcome outcome = Deletion.of(stored, isPod(path), options.gracePeriodSeconds(), Instant.now());
        String answer = found.getValue();
        if (outcome instanceof Deletion.Remove) {
            processEvent(path, pathAttributes, found.getKey(), null, null);
        } else if (outcome instanceof Deletion.Mark mark) {
            if (!dryRunning.get()) {
                mark.object().withObjectProperty("metadata").put("resourceVersion", String.valueOf(requestResourceVersion()));
            }
            answer = Serialization.asJson(mark.object());
            processEvent(path, pathAttributes, found.getKey(), null, answer);
        }
        return new MockResponse().setResponseCode(HttpURLConnection.HTTP_OK).setBody(answer);
    }

    /** Deletions that do not come from a DELETE request, the garbage collector's, take the same path. */
    @Override
    public MockResponse handleDelete(String path) {
        DeleteRequest options;
        try {
            options = DeleteRequest.of(path, null);
        } catch (IllegalArgumentException e) {
            return StatusResponses.badRequest(e.getMessage());
        }
        return locked(requestLock.writeLock(), () -> delete(withoutQuery(path), options));
    }

    /**
     * JSON patches are applied here and written as an update, so that they pass admission and keep the system
     * fields as every other update; the stock handler would write them directly.
     */
    @Override
    public MockResponse handlePatch(RecordedRequest request) {
        String path = withoutQuery(request.getPath());
        String contentType = request.getHeader(CONTENT_TYPE);
        boolean jsonPatch = contentType == null || contentType.startsWith("application/json-patch+json");
        Optional<ObjectNode> current = jsonPatch ? store.get(path) : Optional.empty();
        if (current.isEmpty()) {
            return super.handlePatch(request);
        }
        JsonNode patched;
        try {
            patched = JsonPatches.apply(Json.parse(request.getBody().getBytes()), current.get());
        } catch (IOException | RuntimeException e) {
            // The stock handler answers a patch that does not apply.
            return super.handlePatch(request);
        }
        return handleUpdate(request(HttpMethod.PUT, path, patched));
    }

    /** Creates an object as a POST would, but without admission: for tests that need what a real API server refuses. */
    MockResponse createWithoutAdmission(String collectionPath, JsonNode object) {
        return locked(requestLock.readLock(), () -> super.handleCreate(request(HttpMethod.POST, collectionPath, object)));
    }

    /**
     * Keeps the {@link ObjectIndex} and the {@link OwnerIndex} in step with the store, and has the dependents of
     * every object that leaves the store deleted once the request is done, however it was deleted.
     */
    @Override
    public void processEvent(String path, AttributeSet pathAttributes, AttributeSet oldAttributes,
                             GenericKubernetesResource resource, String newState) {
        if (dryRunning.get()) {
            return;
        }
        String removed = newState == null && oldAttributes != null ? map.get(oldAttributes) : null;
        // The store's own monitor (a synchronized map), so that a reader of the index, or a watch that opens,
        // never sees the store between its change and theirs.
        synchronized (map) {
            String existing = oldAttributes == null ? null : map.get(oldAttributes);
            super.processEvent(path, pathAttributes, oldAttributes, resource, newState);
            AttributeSet key = null;
            if (oldAttributes != null) {
                index.remove(oldAttributes);
                owners.remove(oldAttributes);
            }
            if (newState != null) {
                key = storedKey(pathAttributes, resource, newState);
                index.put(key);
                owners.put(key, newState);
            }
            if (!Objects.equals(existing, newState)) {
                recordChange(oldAttributes, existing, key, newState);
            }
        }
        if (removed != null) {
            cascadingDeleter.removed(removed);
        }
    }

    /**
     * A deletion is a change of its own with a resourceVersion of its own, as on the API server; the stock
     * dispatcher would send the deleted object at the version it had, so a client resuming from it would
     * replay the changes before the deletion.
     */
    private void recordChange(AttributeSet oldKey, String existing, AttributeSet newKey, String newState) {
        if (newState == null && existing != null) {
            long version = super.requestResourceVersion();
            ObjectNode deleted = Json.stored(existing);
            deleted.withObjectProperty("metadata").put("resourceVersion", String.valueOf(version));
            watches.changed(new WatchHub.Change(version, oldKey, Serialization.asJson(deleted), null, null));
        } else if (unrecordedResourceVersion > 0) {
            watches.changed(new WatchHub.Change(unrecordedResourceVersion, oldKey, existing, newKey, newState));
            unrecordedResourceVersion = 0;
        }
    }

    /** In a dry run, none is consumed; the stock create asks for one, which {@link #dryRunCreate} takes off. */
    @Override
    public long requestResourceVersion() {
        if (dryRunning.get()) {
            return 0;
        }
        long version = super.requestResourceVersion();
        unrecordedResourceVersion = version;
        return version;
    }

    /**
     * A dry-run update keeps the stored resourceVersion, which the stock update has copied in: kube-apiserver's
     * dry-run storage answers the updated object at the version it was read at.
     */
    @Override
    public void touchResourceVersion(JsonNode currentResource, JsonNode updatedResource) {
        if (!dryRunning.get()) {
            super.touchResourceVersion(currentResource, updatedResource);
        }
    }

    /** The key the stock dispatcher stores a written object under, derived the same way it does. */
    private AttributeSet storedKey(AttributeSet pathAttributes, GenericKubernetesResource resource, String newState) {
        KubernetesAttributesExtractor extractor = (KubernetesAttributesExtractor) attributeExtractor;
        AttributeSet key = resource != null ? extractor.extract(resource) : extractor.fromResource(newState);
        return key.containsKey(KubernetesAttributesExtractor.PLURAL) ? key : AttributeSet.merge(pathAttributes, key);
    }

    /** Finds an object named by its path through the index instead of matching every stored object. */
    @Override
    public Map.Entry<AttributeSet, String> findResource(AttributeSet query) {
        if (!ObjectIndex.answersAlone(query)) {
            return super.findResource(query);
        }
        synchronized (map) {
            AttributeSet key = index.find(query);
            String stored = key == null ? null : map.get(key);
            return stored != null && key.matches(query) ? Map.entry(key, stored) : null;
        }
    }

    /** Reads of one object by name go through {@link #findResource}; lists and watches to the stock code. */
    @Override
    public MockResponse handleGet(String path) {
        AttributeSet query = attributeExtractor.fromPath(path);
        if (!ObjectIndex.answersAlone(query) || RequestQuery.isWatch(path)) {
            return super.handleGet(path);
        }
        Map.Entry<AttributeSet, String> found = findResource(query);
        return found == null ? new MockResponse().setResponseCode(HttpURLConnection.HTTP_NOT_FOUND)
                : new MockResponse().setResponseCode(HttpURLConnection.HTTP_OK).setBody(found.getValue());
    }

    @Override
    public void reset() {
        super.reset();
        index.clear();
        owners.clear();
        watches.clear();
    }

    /**
     * A watch with the API server's resourceVersion semantics ({@link WatchHub}), selectors included; its
     * events carry Tables of the objects where kubectl asks for them ({@code kubectl get -w}).
     */
    private MockResponse watch(RecordedRequest request, ServedResources.Resource resource) {
        return watch(request, request.getPath(), resource, UnaryOperator.identity());
    }

    /**
     * A watch of the objects stored under another resource, shown as {@code resource} shows them.
     *
     * @param storedPathWithQuery the request's path and query in the stored resource's terms (its selectors' too)
     * @param view                a stored object as the requested resource shows it
     */
    private MockResponse watch(RecordedRequest request, String storedPathWithQuery, ServedResources.Resource resource,
                               UnaryOperator<String> view) {
        Selectors selectors;
        try {
            selectors = Selectors.of(storedPathWithQuery);
        } catch (IllegalArgumentException e) {
            return StatusResponses.badRequest(e.getMessage());
        }
        WatchHub.Start start = WatchHub.Start.of(storedPathWithQuery, resource.apiVersion(), resource.kind());
        Optional<String> invalid = start.problem();
        if (invalid.isPresent()) {
            return StatusResponses.invalid("ListOptions", "", "ListOptions.meta.k8s.io \"\" is invalid: " + invalid.get());
        }
        UnaryOperator<String> render = view;
        if (ServerSideTables.requested(request.getHeader("Accept"))) {
            // The requested resource's columns, of the object as it shows it.
            Map<String, String> parsed = parse(withoutQuery(request.getPath()));
            boolean fullObjects = request.getPath().contains("includeObject=Object");
            render = state -> {
                String shown = view.apply(state);
                return tables.render(parsed.get(KubernetesAttributesExtractor.API),
                        parsed.get(KubernetesAttributesExtractor.PLURAL), Json.stored(shown), fullObjects)
                        .map(Serialization::asJson).orElse(shown);
            };
        }
        return new MockResponse().withWebSocketUpgrade(watches.watch(
                attributeExtractor.fromPath(withoutQuery(storedPathWithQuery)), selectors, start, () -> map, render));
    }

    /**
     * events.k8s.io/v1 Events, served as kube-apiserver serves them: as a view of the stored core/v1 Events
     * ({@link EventsV1View}), so that an Event written through either API is read through both.
     */
    private MockResponse eventsV1(RecordedRequest request) {
        ServedResources.Resource resource = served.find("events.k8s.io", "v1", "events").orElseThrow();
        String corePathWithQuery;
        try {
            corePathWithQuery = EventsV1View.corePathWithQuery(request.getPath());
        } catch (IllegalArgumentException e) {
            return StatusResponses.badRequest(e.getMessage());
        }
        if (request.method() == HttpMethod.GET && RequestQuery.isWatch(request.getPath())) {
            return watch(request, corePathWithQuery, resource,
                    state -> Serialization.asJson(EventsV1View.toV1(Json.stored(state))));
        }
        byte[] body = request.getBody() == null ? null : request.getBody().getBytes();
        if (body != null && body.length > 0) {
            if (request.method() == HttpMethod.POST || request.method() == HttpMethod.PUT) {
                RequestTypeMeta typeMeta = RequestTypeMeta.of(body, resource);
                if (typeMeta.refusal() != null) {
                    return typeMeta.refusal();
                }
                body = typeMeta.body().map(completed -> Serialization.asJson(completed).getBytes(StandardCharsets.UTF_8))
                        .orElse(body);
            }
            if (request.method() != HttpMethod.DELETE) {
                // A DELETE's body is DeleteOptions, the same in both APIs.
                body = coreBody(request.method(), body);
            }
        }
        RecordedRequest core = new RecordedRequest(request.getHttpVersion(), request.method(), corePathWithQuery,
                request.getHeaders(), body == null ? null : new Buffer(body));
        MockResponse response = route(core, withoutQuery(corePathWithQuery));
        if (response == null || response.getBody() == null || response.getBody().size() == 0) {
            return response;
        }
        try {
            JsonNode shown = EventsV1View.responseToV1(Json.parse(response.getBody().getBytes()));
            return response.setBody(Serialization.asJson(shown));
        } catch (IOException e) {
            return response;
        }
    }

    /** An events.k8s.io/v1 request body in core/v1 terms; one that is not JSON goes as it is, for the handlers to refuse. */
    private static byte[] coreBody(HttpMethod method, byte[] body) {
        JsonNode parsed;
        try {
            parsed = Json.parse(body);
        } catch (IOException e) {
            return body;
        }
        JsonNode core;
        if (method == HttpMethod.PATCH && parsed instanceof ArrayNode operations) {
            core = EventsV1View.jsonPatchToCore(operations);
        } else if (method == HttpMethod.PATCH && parsed instanceof ObjectNode patch) {
            core = EventsV1View.mergePatchToCore(patch);
        } else if (parsed instanceof ObjectNode event) {
            core = EventsV1View.toCore(event);
        } else {
            return body;
        }
        return Serialization.asJson(core).getBytes(StandardCharsets.UTF_8);
    }


    /** Answers requests with selectors here and leaves the others to the stock dispatcher. */
    private MockResponse withSelectors(RecordedRequest request, Function<Selectors, MockResponse> handler) {
        Selectors selectors;
        try {
            selectors = Selectors.of(request.getPath());
        } catch (IllegalArgumentException e) {
            return StatusResponses.badRequest(e.getMessage());
        }
        return selectors.isEmpty() ? locked(requestLock.readLock(), () -> super.dispatch(request)) : handler.apply(selectors);
    }

    private MockResponse create(String collectionPath, JsonNode object) {
        if (PodDefaults.appliesTo(collectionPath)) {
            return createPod(collectionPath, FieldValidation.WARN, object);
        }
        JsonNode defaulted = ClaimDefaults.appliesTo(collectionPath) ? ClaimDefaults.apply(object)
                : ResourceClaimCreation.appliesTo(collectionPath) ? ResourceClaimCreation.apply(object) : object;
        return handleCreate(request(HttpMethod.POST, collectionPath, defaulted));
    }

    /**
     * A pod is decoded (its unknown fields dropped or refused as {@code validation} says), defaulted, named,
     * given the container defaults of its namespace's LimitRanges ({@link LimitRanger}) and its priority
     * ({@link PriorityAdmission}, which refuses a class that does not exist), and validated
     * ({@link PodValidation}), then held to the LimitRanges' bounds, before it is created, as kube-apiserver does;
     * the name is generated first because the refusals name the pod. A valid pod then passes the PodSecurity admission of its namespace's
     * labels ({@link PodSecurity}) and, last as in kube's order of validating admission plugins, the ResourceQuotas
     * of its namespace ({@link QuotaAdmission}). A created pod's answer carries kube-apiserver's warnings about it
     * ({@link PodWarnings}), then PodSecurity's.
     */
    private MockResponse createPod(String collectionPath, FieldValidation validation, JsonNode body) {
        Optional<String> undecodable = PodValidation.undecodable(body);
        if (undecodable.isPresent()) {
            return StatusResponses.badRequest(undecodable.get());
        }
        if (!(body instanceof ObjectNode object)) {
            return handleCreate(request(HttpMethod.POST, collectionPath, body));
        }
        ObjectNode pod = object.deepCopy();
        List<String> unknown = ModelFields.prune(pod, Pod.class);
        Optional<MockResponse> refused = validation.refusal("Pod", "v1", unknown);
        if (refused.isPresent()) {
            return refused.get();
        }
        String namespace = parse(collectionPath).get(KubernetesAttributesExtractor.NAMESPACE);
        List<LimitRange> limitRanges = limitRanges(namespace);
        JsonNode defaulted = GeneratedNames.named(LimitRanger.apply(PodDefaults.apply(pod),
                LimitRangeDefaults.of(limitRanges)));
        String name = defaulted.path("metadata").path("name").asText("");
        PriorityAdmission.Outcome priority = PriorityAdmission.admit(defaulted,
                storedIn(PRIORITY_CLASS_GROUP, "", "priorityclasses"));
        if (priority.refused().isPresent()) {
            return StatusResponses.forbidden("pods", name, priority.refused().get());
        }
        JsonNode named = priority.pod();
        List<FieldError> errors = PodValidation.validate(named);
        if (!errors.isEmpty()) {
            return StatusResponses.invalid(null, "Pod", name, errors);
        }
        Optional<String> outOfRange = LimitRanger.refusal(named, limitRanges);
        if (outOfRange.isPresent()) {
            return StatusResponses.forbidden("pods", name, outOfRange.get());
        }
        PodSecurity.Decision security = PodSecurity.admit(namespaceLabels(collectionPath), named);
        if (security.refusal().isPresent()) {
            return StatusResponses.forbidden("pods", name, security.refusal().get());
        }
        MockResponse created = quotas.create(namespace, named, dryRunning.get(),
                () -> handleCreate(request(HttpMethod.POST, collectionPath, named)));
        return FieldValidation.withWarnings(FieldValidation.withWarnings(validation.warned(created, unknown),
                PodWarnings.of(named)), security.warnings());
    }

    /** The namespace's LimitRanges. */
    private List<LimitRange> limitRanges(String namespace) {
        return storedIn(namespace, "limitranges").stream()
                .map(range -> Serialization.jsonMapper().convertValue(range, LimitRange.class)).toList();
    }

    /** The labels of the namespace of a collection path; none when the namespace is not stored. */
    private Map<String, String> namespaceLabels(String collectionPath) {
        Map.Entry<AttributeSet, String> namespace = findResource(getKey(collectionPath.substring(0, collectionPath.lastIndexOf('/'))));
        if (namespace == null) {
            return Map.of();
        }
        Map<String, String> labels = new HashMap<>();
        Json.stored(namespace.getValue()).path("metadata").path("labels").fields()
                .forEachRemaining(label -> labels.put(label.getKey(), label.getValue().asText()));
        return labels;
    }

    /** A pod's update (main resource or status) drops or refuses its unknown fields as its creation does. */
    private MockResponse replacePod(String path, FieldValidation validation, JsonNode body) {
        if (!(body instanceof ObjectNode object)) {
            return store.replace(path, body);
        }
        ObjectNode pod = object.deepCopy();
        List<String> unknown = ModelFields.prune(pod, Pod.class);
        Optional<MockResponse> refused = validation.refusal("Pod", "v1", unknown);
        if (refused.isPresent()) {
            return refused.get();
        }
        store.get(path).ifPresent(stored -> PriorityAdmission.keepResolved(stored, pod));
        return validation.warned(store.replace(path, pod), unknown);
    }

    private String storedCrd(String name) {
        Map.Entry<AttributeSet, String> stored = findResource(getKey(CRDS_PATH + "/" + name));
        return stored == null ? null : stored.getValue();
    }

    /** The stored objects of a core resource in a namespace, found through the index rather than a scan of the store. */
    private List<ObjectNode> storedIn(String namespace, String plural) {
        return storedIn("", namespace, plural);
    }

    /**
     * The stored objects of a resource in a namespace ({@code ""} for a cluster-scoped resource), found through the
     * index rather than a scan of the store.
     *
     * @param group the API group; empty for the core group
     */
    private List<ObjectNode> storedIn(String group, String namespace, String plural) {
        List<String> stored = new ArrayList<>();
        synchronized (map) {
            for (AttributeSet key : index.keysIn(group, plural, namespace)) {
                String object = map.get(key);
                if (object != null) {
                    stored.add(object);
                }
            }
        }
        return stored.stream().map(Json::stored).toList();
    }

    /** The stored CRD of a name decoded, decoded again only when a write has replaced it. */
    private CustomResourceDefinition storedCrdDefinition(String name) {
        String stored = storedCrd(name);
        if (stored == null) {
            return null;
        }
        Map.Entry<String, CustomResourceDefinition> decoded = decodedCrds.get(name);
        if (decoded != null && decoded.getKey() == stored) {
            return decoded.getValue();
        }
        CustomResourceDefinition crd = Serialization.unmarshal(stored, CustomResourceDefinition.class);
        decodedCrds.put(name, Map.entry(stored, crd));
        return crd;
    }

    /**
     * A list answered as kube-apiserver answers it: of kind {@code <Kind>List} in the resource's group version
     * (the stock dispatcher says {@code v1 List}, which client-go's typed clients refuse for custom resources and
     * decode as an empty list for core kinds), at the resourceVersion of the newest change it shows.
     */
    private static MockResponse typedList(ServedResources.Resource resource, long listedAt, MockResponse response) {
        if (response.code() != HttpURLConnection.HTTP_OK || response.getBody() == null) {
            return response;
        }
        ObjectNode list = Json.stored(response.getBody().getBytes());
        if (!list.has("items")) {
            return response;
        }
        ObjectNode typed = list.objectNode().put("apiVersion", resource.apiVersion()).put("kind", resource.kind() + "List");
        typed.putObject("metadata").put("resourceVersion", String.valueOf(listedAt));
        typed.set("items", list.get("items"));
        return StatusResponses.json(HttpURLConnection.HTTP_OK, typed);
    }

    private List<CustomResourceDefinition> storedCrds() {
        MockResponse list = handleGet(CRDS_PATH);
        return Serialization.unmarshal(list.getBody().readUtf8(), CustomResourceDefinitionList.class).getItems();
    }

    private List<JsonNode> storedCrdDocuments() {
        List<JsonNode> crds = new ArrayList<>();
        Json.stored(handleGet(CRDS_PATH).getBody().getBytes()).path("items").forEach(crds::add);
        return crds;
    }

    private MockResponse asTable(RecordedRequest request, String path, MockResponse response) {
        Map<String, String> parsed = parse(path);
        JsonNode body = Json.stored(response.getBody().getBytes());
        return tables.render(parsed.get(KubernetesAttributesExtractor.API), parsed.get(KubernetesAttributesExtractor.PLURAL),
                        body, request.getPath().contains("includeObject=Object"))
                .map(table -> StatusResponses.json(HttpURLConnection.HTTP_OK, table))
                .orElseGet(() -> withJsonContentType(response));
    }

    private MockResponse notFound(String path) {
        Map<String, String> parsed = parse(path);
        String name = parsed.get(KubernetesAttributesExtractor.NAME);
        return name == null || path.startsWith("/openapi")
                ? StatusResponses.pathNotFound()
                : StatusResponses.notFound(parsed.get(KubernetesAttributesExtractor.PLURAL), name);
    }

    /**
     * The stock dispatcher gives its 409s reason {@code Invalid}; the API server says {@code AlreadyExists} for
     * a create and {@code Conflict} for a stale update, and clients tell the two apart by that reason.
     */
    private static MockResponse withConflictReason(MockResponse response, String reason) {
        Status status = Serialization.unmarshal(new String(response.getBody().getBytes(), StandardCharsets.UTF_8),
                Status.class);
        if ("Invalid".equals(status.getReason())) {
            status.setReason(reason);
            return StatusResponses.json(response.code(), status);
        }
        return withJsonContentType(response);
    }

    private static MockResponse withJsonContentType(MockResponse response) {
        if (response.header(CONTENT_TYPE) == null) {
            response.setHeader(CONTENT_TYPE, "application/json");
        }
        return response;
    }

    /** api (group), version, plural, namespace and name of an API path, as the stock dispatcher reads them. */
    private Map<String, String> parse(String path) {
        return ((KubernetesAttributesExtractor) attributeExtractor).fromKubernetesPath(path);
    }

    /** Whether a path (without query) names core/v1 pods or one pod, its subresources included. */
    private boolean isPod(String path) {
        Map<String, String> parsed = parse(path);
        return parsed.get(KubernetesAttributesExtractor.API) == null && "pods".equals(parsed.get(KubernetesAttributesExtractor.PLURAL));
    }

    /**
     * Whether a write to the object's main resource keeps its stored status, as the API server's status subresource
     * does: pods, and DRA's ResourceClaims, whose status (allocation, reservations) a metadata update must not undo.
     * Muster's CRDs get the same from the stock dispatcher.
     */
    private boolean keepsStoredStatus(String path) {
        Map<String, String> parsed = parse(path);
        return isPod(path) || ServedResources.DRA_GROUP.equals(parsed.get(KubernetesAttributesExtractor.API))
                && "resourceclaims".equals(parsed.get(KubernetesAttributesExtractor.PLURAL))
                && parsed.containsKey(KubernetesAttributesExtractor.NAME);
    }

    private boolean isCollection(String path) {
        Map<String, String> parsed = parse(path);
        return parsed.containsKey(KubernetesAttributesExtractor.PLURAL) && !parsed.containsKey(KubernetesAttributesExtractor.NAME);
    }

    private static MockResponse withBody(RecordedRequest request, Function<JsonNode, MockResponse> handler) {
        try {
            return handler.apply(Json.parse(request.getBody().getBytes()));
        } catch (IOException e) {
            return StatusResponses.badRequest("the request body is not valid JSON: " + e.getMessage());
        }
    }

    private static RecordedRequest request(HttpMethod method, String path, JsonNode body) {
        byte[] bytes = Serialization.asJson(body).getBytes(StandardCharsets.UTF_8);
        return new RecordedRequest("HTTP/1.1", method, path,
                Headers.builder().add(CONTENT_TYPE, "application/json").build(), new Buffer(bytes));
    }

    private static String withoutQuery(String path) {
        int query = path.indexOf('?');
        return query < 0 ? path : path.substring(0, query);
    }

    private static <T> T locked(Lock lock, Supplier<T> action) {
        lock.lock();
        try {
            return action.get();
        } finally {
            lock.unlock();
        }
    }

    /** Reads and writes through the stock handlers, so added operations get the stock checks and events. */
    private final class Store implements StoredObjects {
        @Override
        public Optional<ObjectNode> get(String path) {
            return Optional.ofNullable(findResource(getKey(path))).map(stored -> Json.stored(stored.getValue()));
        }

        /**
         * The stock dispatcher checks the resourceVersion of a status replacement against the stored object
         * with the new status, i.e. against itself; a stale status write would win, hence the check here.
         */
        @Override
        public MockResponse replace(String path, JsonNode object) {
            String basedOn = object.path("metadata").path("resourceVersion").asText("");
            if (path.endsWith(STATUS_SUFFIX) && !basedOn.isEmpty()) {
                Optional<ObjectNode> current = get(path);
                if (current.isPresent() && !basedOn.equals(current.get().path("metadata").path("resourceVersion").asText())) {
                    Map<String, String> parsed = parse(path);
                    return StatusResponses.conflict(parsed.get(KubernetesAttributesExtractor.PLURAL),
                            parsed.get(KubernetesAttributesExtractor.NAME),
                            "the object has been modified; please apply your changes to the latest version and try again");
                }
            }
            return handleUpdate(request(HttpMethod.PUT, path, object));
        }

        @Override
        public List<ObjectNode> list(String collectionPath) {
            JsonNode list = Json.stored(handleGet(collectionPath).getBody().getBytes());
            List<ObjectNode> items = new ArrayList<>();
            list.path("items").forEach(item -> items.add((ObjectNode) item));
            return items;
        }

        @Override
        public MockResponse replaceSpecAndStatus(String path, JsonNode object) {
            return update(request(HttpMethod.PUT, path, object));
        }

        @Override
        public MockResponse create(String collectionPath, JsonNode object) {
            return MusterCrudDispatcher.this.create(collectionPath, object);
        }
    }
}
