package dev.muster.local.admission;

import java.util.List;
import java.util.Optional;

/**
 * An API path under {@code /apis/{group}/{version}/} that may name custom resources:
 * {@code [namespaces/{ns}/]{plural}[/{name}[/status]]}, without query.
 *
 * @param group   the API group
 * @param version the version
 * @param plural  the resource
 * @param name    the object's name, or {@code null} for a collection
 * @param status  whether the path is the object's {@code /status} subresource
 */
record CustomResourcePath(String group, String version, String plural, String name, boolean status) {
    private static final String APIS = "/apis/";

    static Optional<CustomResourcePath> of(String path) {
        int query = path.indexOf('?');
        String bare = query < 0 ? path : path.substring(0, query);
        if (!bare.startsWith(APIS)) {
            return Optional.empty();
        }
        List<String> segments = List.of(bare.substring(APIS.length()).split("/"));
        if (segments.size() < 3) {
            return Optional.empty();
        }
        List<String> rest = segments.subList(2, segments.size());
        if (rest.size() >= 3 && rest.get(0).equals("namespaces")) {
            rest = rest.subList(2, rest.size());
        }
        if (rest.isEmpty() || rest.size() > 3 || rest.size() == 3 && !rest.get(2).equals("status")) {
            return Optional.empty();
        }
        return Optional.of(new CustomResourcePath(segments.get(0), segments.get(1), rest.get(0),
                rest.size() > 1 ? rest.get(1) : null, rest.size() == 3));
    }

    /** The name of the CustomResourceDefinition that would define this resource. */
    String crdName() {
        return plural + "." + group;
    }
}
