package dev.muster.local.server;

import dev.muster.local.protocol.StatusResponses;
import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIGroupBuilder;
import io.fabric8.kubernetes.api.model.APIGroupListBuilder;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceBuilder;
import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.api.model.APIVersionsBuilder;
import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.RootPathsBuilder;
import io.fabric8.mockwebserver.http.MockResponse;

import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The discovery endpoints kubectl and clients read before anything else: {@code /}, {@code /version}, {@code /api},
 * {@code /api/v1}, {@code /apis}, {@code /apis/<group>} and {@code /apis/<group>/<version>}. The stock CRUD
 * dispatcher treats these paths as queries over its store (a list of every object for {@code /api}) and
 * lists CRD resources without verbs, which kubectl needs to decide that {@code get} is allowed.
 * Every resource listed is one {@link ServedResources} serves, built-in or from a CRD stored in the emulator (so
 * a CRD applied at run time is discoverable too), and every one it serves is listed.
 */
final class DiscoveryDocuments {
    /** Kubernetes release whose API the emulator imitates; kubectl warns when it is far from its own. */
    private static final String MAJOR = "1";
    private static final String MINOR = "34";

    private static final List<String> STATUS_VERBS = List.of("get", "patch", "update");
    private static final List<String> NONE = List.of();

    private final ServedResources served;

    /** @param served what the emulator serves, which is what discovery lists */
    DiscoveryDocuments(ServedResources served) {
        this.served = served;
    }

    /**
     * The discovery answer for a GET of {@code path} (without query) accepting {@code accept}, or empty if it
     * is not a discovery path.
     *
     * @param host the request's {@code Host} header: the address this server is reached at, which {@code /api}
     *             tells clients to use from any network, as kube-apiserver names its advertised address
     */
    Optional<MockResponse> answer(String path, String accept, String host) {
        String[] segments = path.replaceAll("^/+|/+$", "").split("/");
        switch (segments[0]) {
            case "":
                return Optional.of(ok(new RootPathsBuilder().withPaths(rootPaths()).build()));
            case "version":
                return segments.length == 1 ? Optional.of(ok(version())) : Optional.empty();
            case "openapi":
                return Optional.of(segments.length == 2 && segments[1].equals("v2")
                        ? emptyOpenApiV2(accept) : StatusResponses.pathNotFound());
            case "api":
                if (segments.length == 1) {
                    // serverAddressByClientCIDRs is required: strict clients (the Python client) refuse /api without it.
                    return Optional.of(ok(new APIVersionsBuilder().withVersions("v1")
                            .addNewServerAddressByClientCIDR("0.0.0.0/0", host == null ? "" : host).build()));
                }
                return segments.length == 2 ? Optional.of(resourceList("", segments[1])) : Optional.empty();
            case "apis":
                return switch (segments.length) {
                    case 1 -> Optional.of(ok(new APIGroupListBuilder().withGroups(groups()).build()));
                    case 2 -> Optional.of(groups().stream().filter(g -> g.getName().equals(segments[1])).findFirst()
                            .map(DiscoveryDocuments::ok).orElseGet(StatusResponses::pathNotFound));
                    case 3 -> Optional.of(resourceList(segments[1], segments[2]));
                    default -> Optional.empty();
                };
            default:
                return Optional.empty();
        }
    }

    private List<String> rootPaths() {
        List<String> paths = new ArrayList<>(List.of("/api", "/api/v1", "/apis", "/openapi/v2", "/openapi/v3", "/version"));
        resources().forEach((group, versions) -> {
            if (!group.isEmpty()) {
                paths.add("/apis/" + group);
                versions.keySet().forEach(version -> paths.add("/apis/" + group + "/" + version));
            }
        });
        return paths;
    }

    private MockResponse resourceList(String group, String version) {
        List<APIResource> resources = resources().getOrDefault(group, Map.of()).get(version);
        if (resources == null) {
            return StatusResponses.pathNotFound();
        }
        return ok(new APIResourceListBuilder().withGroupVersion(HasMetadata.getApiVersion(group, version))
                .withResources(resources).build());
    }

    private List<APIGroup> groups() {
        List<APIGroup> groups = new ArrayList<>();
        resources().forEach((group, versions) -> {
            if (group.isEmpty()) {
                return; // the core group is served at /api
            }
            List<GroupVersionForDiscovery> discovered = versions.keySet().stream()
                    .map(v -> new GroupVersionForDiscovery(HasMetadata.getApiVersion(group, v), v)).toList();
            groups.add(new APIGroupBuilder().withName(group).withVersions(discovered)
                    .withPreferredVersion(discovered.get(0)).build());
        });
        return groups;
    }

    /** group → version → resources, built-ins first, computed per request since CRDs may come and go. */
    private Map<String, Map<String, List<APIResource>>> resources() {
        Map<String, Map<String, List<APIResource>>> byGroup = new LinkedHashMap<>();
        for (ServedResources.Resource served : served.all()) {
            List<APIResource> list = byGroup.computeIfAbsent(served.group(), g -> new LinkedHashMap<>())
                    .computeIfAbsent(served.version(), v -> new ArrayList<>());
            String plural = served.plural();
            boolean namespaced = served.namespaced();
            list.add(resource(plural, served.singular(), served.kind(), namespaced, served.verbs(),
                    served.shortNames(), served.categories()));
            for (String subresource : served.subresources()) {
                list.add(switch (subresource) {
                    case "binding" -> resource(plural + "/binding", "", HasMetadata.getKind(Binding.class), namespaced,
                            ServedResources.CREATE_ONLY, NONE, NONE);
                    // Served under pods, as the API server does, but of kind policy/v1 Eviction.
                    case "eviction" -> new APIResourceBuilder(resource(plural + "/eviction", "",
                            ServedResources.EVICTION.kind(), namespaced, ServedResources.CREATE_ONLY, NONE, NONE))
                            .withGroup(ServedResources.EVICTION.group())
                            .withVersion(ServedResources.EVICTION.version()).build();
                    default -> resource(plural + "/" + subresource, "", served.kind(), namespaced,
                            STATUS_VERBS, NONE, NONE);
                });
            }
        }
        return byGroup;
    }

    private static APIResource resource(String name, String singular, String kind, boolean namespaced,
                                        List<String> verbs, List<String> shortNames, List<String> categories) {
        return new APIResourceBuilder().withName(name).withSingularName(singular).withKind(kind)
                .withNamespaced(namespaced).withVerbs(verbs).withShortNames(shortNames).withCategories(categories)
                .build();
    }

    /**
     * An OpenAPI v2 document without definitions. kubectl's default {@code --validate=strict} refuses to
     * create anything when it cannot download one; with no definitions it skips client-side validation and
     * computes patches from its compiled-in types. kubectl asks for protobuf, where an empty message is a
     * valid empty document. (v3 lists CRDs' group-versions only ({@link OpenApiV3Documents}); for a built-in
     * kind kubectl falls back to v2.)
     */
    private static MockResponse emptyOpenApiV2(String accept) {
        if (accept != null && accept.contains("protobuf")) {
            return new MockResponse().setResponseCode(HttpURLConnection.HTTP_OK)
                    .setHeader("Content-Type", "application/octet-stream");
        }
        return ok(Map.of("swagger", "2.0", "info", Map.of("title", "Kubernetes", "version", "v" + MAJOR + "." + MINOR),
                "paths", Map.of()));
    }

    private static Map<String, String> version() {
        Map<String, String> version = new LinkedHashMap<>();
        version.put("major", MAJOR);
        version.put("minor", MINOR);
        version.put("gitVersion", "v" + MAJOR + "." + MINOR + ".0-muster-local");
        version.put("gitCommit", "");
        version.put("gitTreeState", "clean");
        version.put("buildDate", "1970-01-01T00:00:00Z");
        version.put("goVersion", "none");
        version.put("compiler", "none");
        version.put("platform", System.getProperty("os.name").toLowerCase() + "/" + System.getProperty("os.arch"));
        return version;
    }

    private static MockResponse ok(Object body) {
        return StatusResponses.json(HttpURLConnection.HTTP_OK, body);
    }
}
