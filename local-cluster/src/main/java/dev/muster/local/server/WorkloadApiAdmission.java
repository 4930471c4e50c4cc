package dev.muster.local.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.local.admission.WorkloadApiValidation;
import dev.muster.local.protocol.FieldError;
import dev.muster.local.protocol.Json;
import dev.muster.local.protocol.StatusResponses;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The create and update strategies kube-apiserver 1.36 applies to the alpha Workload API and to a pod's
 * {@code spec.schedulingGroup}: Workloads and PodGroups are validated ({@link WorkloadApiValidation}); a PodGroup's
 * status is written only through its {@code status} subresource (a create starts without one, a main-resource
 * update keeps the stored one) and a status write keeps the stored spec, as the scheduler, its one writer, expects.
 */
final class WorkloadApiAdmission {
    /** The group of the Workload API, which also holds the stable PriorityClasses. */
    static final String GROUP = "scheduling.k8s.io";
    /** The Workload API's one served version. */
    static final String VERSION = "v1alpha2";
    private static final Pattern PATH = Pattern.compile("/apis/" + Pattern.quote(GROUP) + "/" + VERSION
            + "/namespaces/[^/]+/(workloads|podgroups)(/[^/]+(/status)?)?|/api/v1/namespaces/[^/]+/pods(/[^/]+(/status)?)?");
    private static final String STATUS = "status";
    private static final String SPEC = "spec";

    private WorkloadApiAdmission() {
    }

    /**
     * Admits the create or update in {@code request}: refuses it with kube's 422, or passes it to {@code write},
     * its body adjusted to the status subresource's rules. Requests for other resources pass unchanged.
     *
     * @param current the stored object of a path, for updates
     */
    static MockResponse admit(RecordedRequest request, Function<String, Optional<ObjectNode>> current,
                              Function<RecordedRequest, MockResponse> write) {
        String path = request.getPath().split("\\?", 2)[0];
        Matcher matched = PATH.matcher(path);
        boolean create = request.method() == HttpMethod.POST;
        if (!matched.matches() || request.getBody() == null || !create && request.method() != HttpMethod.PUT) {
            return write.apply(request);
        }
        String plural = matched.group(1);
        boolean statusWrite = matched.group(3) != null || matched.group(5) != null;
        if (plural == null && (create || statusWrite)) {
            // PodValidation checks a new pod's group; the kubelet's many status writes cannot change it.
            return write.apply(request);
        }
        JsonNode body;
        try {
            body = Json.parse(request.getBody().getBytes());
        } catch (IOException e) {
            return write.apply(request);
        }
        Optional<ObjectNode> old = create ? Optional.empty() : current.apply(path);
        if (!(body instanceof ObjectNode object) || !create && old.isEmpty()) {
            // Left to the stock handlers, which answer these as the API server does (400, 404).
            return write.apply(request);
        }
        if (plural == null) {
            List<FieldError> errors = WorkloadApiValidation.podSchedulingGroup(object, old.get());
            return errors.isEmpty() ? write.apply(request)
                    : StatusResponses.invalid(null, "Pod", object.path("metadata").path("name").asText(""), errors);
        }
        ObjectNode admitted = object.deepCopy();
        if ("podgroups".equals(plural)) {
            keepStatusApart(admitted, old.orElse(null), statusWrite);
        }
        if (statusWrite) {
            return write.apply(withBody(request, admitted));
        }
        JsonNode stored = old.orElse(null);
        List<FieldError> errors = "podgroups".equals(plural)
                ? WorkloadApiValidation.podGroup(admitted, stored) : WorkloadApiValidation.workload(admitted, stored);
        if (!errors.isEmpty()) {
            return StatusResponses.invalid(GROUP, "podgroups".equals(plural) ? "PodGroup" : "Workload",
                    admitted.path("metadata").path("name").asText(""), errors);
        }
        return write.apply(withBody(request, admitted));
    }

    private static void keepStatusApart(ObjectNode podGroup, ObjectNode old, boolean statusWrite) {
        String kept = statusWrite ? SPEC : STATUS;
        if (old == null || old.get(kept) == null) {
            podGroup.remove(kept);
        } else {
            podGroup.set(kept, old.get(kept).deepCopy());
        }
    }

    private static RecordedRequest withBody(RecordedRequest request, JsonNode body) {
        return new RecordedRequest(request.getHttpVersion(), request.method(), request.getPath(), request.getHeaders(),
                new Buffer(body.toString().getBytes(StandardCharsets.UTF_8)));
    }
}
