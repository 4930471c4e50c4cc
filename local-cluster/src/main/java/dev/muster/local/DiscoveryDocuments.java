package dev.muster.local;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIGroupBuilder;
import io.fabric8.kubernetes.api.model.APIGroupListBuilder;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceBuilder;
import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.api.model.APIVersionsBuilder;
import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Endpoints;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.RootPathsBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.authentication.SelfSubjectReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authorization.v1.LocalSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.policy.v1.Eviction;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.mockwebserver.http.MockResponse;

import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The discovery endpoints kubectl and clients read before anything else: {@code /}, {@code /version}, {@code /api},
 * {@code /api/v1}, {@code /apis}, {@code /apis/<group>} and {@code /apis/<group>/<version>}. The stock CRUD
 * dispatcher treats these paths as queries over its store (a list of every object for {@code /api}) and
 * lists CRD resources without verbs, which kubectl needs to decide that {@code get} is allowed.
 * Built-in kinds come from the fabric8 model classes; custom resources from the CRDs stored in the emulator,
 * so a CRD applied at run time is discoverable too.
 */
final class DiscoveryDocuments {
    /** Kubernetes release whose API the emulator imitates; kubectl warns when it is far from its own. */
    private static final String MAJOR = "1";
    private static final String MINOR = "32";

    private static final List<String> ALL_VERBS =
            List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");
    private static final List<String> STATUS_VERBS = List.of("get", "patch", "update");
    private static final List<String> CREATE_ONLY = List.of("create");

    private record BuiltIn(Class<? extends HasMetadata> type, List<String> verbs, List<String> shortNames,
                           List<String> subresources, List<String> categories) {
    }

    /** {@code kubectl get all} lists the resources in this category. */
    private static final List<String> ALL = List.of("all");
    private static final List<String> NONE = List.of();
    private static final List<String> STATUS = List.of("status");

    /** kubectl's short names and categories live in the API server, not in the model classes, hence this list. */
    private static final List<BuiltIn> BUILT_INS = List.of(
            new BuiltIn(Pod.class, ALL_VERBS, List.of("po"), List.of("status", "binding", "eviction"), ALL),
            new BuiltIn(Binding.class, CREATE_ONLY, NONE, NONE, NONE),
            new BuiltIn(Node.class, ALL_VERBS, List.of("no"), STATUS, NONE),
            new BuiltIn(Namespace.class, ALL_VERBS, List.of("ns"), NONE, NONE),
            new BuiltIn(Service.class, ALL_VERBS, List.of("svc"), NONE, ALL),
            new BuiltIn(Endpoints.class, ALL_VERBS, List.of("ep"), NONE, NONE),
            new BuiltIn(ConfigMap.class, ALL_VERBS, List.of("cm"), NONE, NONE),
            new BuiltIn(Secret.class, ALL_VERBS, NONE, NONE, NONE),
            new BuiltIn(ServiceAccount.class, ALL_VERBS, List.of("sa"), NONE, NONE),
            new BuiltIn(io.fabric8.kubernetes.api.model.Event.class, ALL_VERBS, List.of("ev"), NONE, NONE),
            new BuiltIn(Deployment.class, ALL_VERBS, List.of("deploy"), STATUS, ALL),
            new BuiltIn(StatefulSet.class, ALL_VERBS, List.of("sts"), STATUS, ALL),
            new BuiltIn(ReplicaSet.class, ALL_VERBS, List.of("rs"), STATUS, ALL),
            new BuiltIn(DaemonSet.class, ALL_VERBS, List.of("ds"), STATUS, ALL),
            new BuiltIn(io.fabric8.kubernetes.api.model.batch.v1.Job.class, ALL_VERBS, NONE, STATUS, ALL),
            new BuiltIn(CronJob.class, ALL_VERBS, List.of("cj"), STATUS, ALL),
            new BuiltIn(Lease.class, ALL_VERBS, NONE, NONE, NONE),
            new BuiltIn(io.fabric8.kubernetes.api.model.events.v1.Event.class, ALL_VERBS, List.of("ev"), NONE, NONE),
            new BuiltIn(PodDisruptionBudget.class, ALL_VERBS, List.of("pdb"), STATUS, NONE),
            new BuiltIn(PriorityClass.class, ALL_VERBS, List.of("pc"), NONE, NONE),
            new BuiltIn(CustomResourceDefinition.class, ALL_VERBS, List.of("crd", "crds"), STATUS, NONE),
            // AccessReviews: create-only, as in kube-apiserver.
            new BuiltIn(TokenReview.class, CREATE_ONLY, NONE, NONE, NONE),
            new BuiltIn(SelfSubjectReview.class, CREATE_ONLY, NONE, NONE, NONE),
            new BuiltIn(SubjectAccessReview.class, CREATE_ONLY, NONE, NONE, NONE),
            new BuiltIn(SelfSubjectAccessReview.class, CREATE_ONLY, NONE, NONE, NONE),
            new BuiltIn(LocalSubjectAccessReview.class, CREATE_ONLY, NONE, NONE, NONE));

    private final Supplier<List<CustomResourceDefinition>> storedCrds;

    /** @param storedCrds the CRDs currently in the emulator */
    DiscoveryDocuments(Supplier<List<CustomResourceDefinition>> storedCrds) {
        this.storedCrds = storedCrds;
    }

    /**
     * The discovery answer for a GET of {@code path} (without query) accepting {@code accept}, or empty if it
     * is not a discovery path.
     */
    Optional<MockResponse> answer(String path, String accept) {
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
                    return Optional.of(ok(new APIVersionsBuilder().withVersions("v1").build()));
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
        List<String> paths = new ArrayList<>(List.of("/api", "/api/v1", "/apis", "/openapi/v2", "/version"));
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
        for (BuiltIn builtIn : BUILT_INS) {
            Class<? extends HasMetadata> type = builtIn.type();
            List<APIResource> list = byGroup.computeIfAbsent(HasMetadata.getGroup(type), g -> new LinkedHashMap<>())
                    .computeIfAbsent(HasMetadata.getVersion(type), v -> new ArrayList<>());
            String plural = HasMetadata.getPlural(type);
            boolean namespaced = Namespaced.class.isAssignableFrom(type);
            list.add(resource(plural, HasMetadata.getSingular(type), HasMetadata.getKind(type), namespaced,
                    builtIn.verbs(), builtIn.shortNames(), builtIn.categories()));
            for (String subresource : builtIn.subresources()) {
                list.add(switch (subresource) {
                    case "binding" -> resource(plural + "/binding", "", HasMetadata.getKind(Binding.class), namespaced,
                            CREATE_ONLY, NONE, NONE);
                    // Served under pods, as the API server does, but of kind policy/v1 Eviction.
                    case "eviction" -> new APIResourceBuilder(resource(plural + "/eviction", "",
                            HasMetadata.getKind(Eviction.class), namespaced, CREATE_ONLY, NONE, NONE))
                            .withGroup(HasMetadata.getGroup(Eviction.class))
                            .withVersion(HasMetadata.getVersion(Eviction.class)).build();
                    default -> resource(plural + "/" + subresource, "", HasMetadata.getKind(type), namespaced,
                            STATUS_VERBS, NONE, NONE);
                });
            }
        }
        for (CustomResourceDefinition crd : storedCrds.get()) {
            var names = crd.getSpec().getNames();
            boolean namespaced = "Namespaced".equals(crd.getSpec().getScope());
            for (CustomResourceDefinitionVersion version : crd.getSpec().getVersions()) {
                if (Boolean.FALSE.equals(version.getServed())) {
                    continue;
                }
                List<APIResource> list = byGroup.computeIfAbsent(crd.getSpec().getGroup(), g -> new LinkedHashMap<>())
                        .computeIfAbsent(version.getName(), v -> new ArrayList<>());
                list.add(resource(names.getPlural(), names.getSingular(), names.getKind(), namespaced, ALL_VERBS,
                        names.getShortNames(), names.getCategories()));
                if (version.getSubresources() != null && version.getSubresources().getStatus() != null) {
                    list.add(resource(names.getPlural() + "/status", "", names.getKind(), namespaced, STATUS_VERBS,
                            NONE, NONE));
                }
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
     * valid empty document. (v3 answers 404, after which kubectl falls back to v2.)
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
