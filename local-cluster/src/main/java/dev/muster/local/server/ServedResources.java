package dev.muster.local.server;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Endpoints;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.ReplicationController;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.authentication.SelfSubjectReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authorization.v1.LocalSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.IngressClass;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.Eviction;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.api.model.storage.CSIDriver;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.CSIStorageCapacity;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachment;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The resources the emulator serves: the built-in kinds listed here and the served versions of the CRDs stored
 * in it. It is the one list both the request router (a resource path outside it answers 404, as on
 * kube-apiserver) and discovery read, so discovery cannot miss a resource that is served. kubectl's short names
 * and categories live in the API server, not in fabric8's model classes, hence their place here.
 *
 * <p>A built-in kind is served by adding a {@link Resource#builtIn} line to {@link #BUILT_INS}: its group appears
 * in {@code /apis} and its resources in the group version's resource list.
 */
public final class ServedResources {
    static final List<String> ALL_VERBS =
            List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");
    static final List<String> CREATE_ONLY = List.of("create");
    private static final List<String> ALL = List.of("all");
    private static final List<String> NONE = List.of();
    private static final List<String> STATUS = List.of("status");
    /** Dynamic Resource Allocation's group: device classes, resource slices, claims and claim templates. */
    public static final String DRA_GROUP = "resource.k8s.io";

    /**
     * One resource of one group version.
     *
     * @param subresources {@code status}, {@code binding} or {@code eviction}
     * @param categories   {@code all} puts it in {@code kubectl get all}
     */
    public record Resource(String group, String version, String plural, String singular, String kind, boolean namespaced,
                    List<String> verbs, List<String> shortNames, List<String> subresources, List<String> categories) {

        static Resource builtIn(Class<? extends HasMetadata> type, List<String> verbs, List<String> shortNames,
                                List<String> subresources, List<String> categories) {
            return new Resource(HasMetadata.getGroup(type), HasMetadata.getVersion(type), HasMetadata.getPlural(type),
                    HasMetadata.getSingular(type), HasMetadata.getKind(type), Namespaced.class.isAssignableFrom(type),
                    verbs, shortNames, subresources, categories);
        }

        static Resource builtIn(Class<? extends HasMetadata> type, List<String> shortNames, List<String> subresources,
                                List<String> categories) {
            return builtIn(type, ALL_VERBS, shortNames, subresources, categories);
        }

        /**
         * A built-in kind fabric8's model has no class for, served with every verb; its singular is the lower-cased
         * kind, as the API server names it.
         */
        static Resource withoutModel(String group, String version, String kind, String plural, boolean namespaced,
                                     List<String> subresources) {
            return new Resource(group, version, plural, kind.toLowerCase(Locale.ROOT), kind, namespaced, ALL_VERBS,
                    NONE, subresources, NONE);
        }

        /** {@code v1} or {@code group/version}. */
        public String apiVersion() {
            return HasMetadata.getApiVersion(group, version);
        }

        /** Whether a list of this resource is served (clients can read it, not only create it). */
        boolean listable() {
            return verbs.contains("list");
        }
    }

    private static final List<Resource> BUILT_INS = List.of(
            Resource.builtIn(Pod.class, List.of("po"), List.of("status", "binding", "eviction"), ALL),
            Resource.builtIn(Binding.class, CREATE_ONLY, NONE, NONE, NONE),
            Resource.builtIn(Node.class, List.of("no"), STATUS, NONE),
            Resource.builtIn(Namespace.class, List.of("ns"), STATUS, NONE),
            Resource.builtIn(Service.class, List.of("svc"), STATUS, ALL),
            Resource.builtIn(Endpoints.class, List.of("ep"), NONE, NONE),
            Resource.builtIn(ConfigMap.class, List.of("cm"), NONE, NONE),
            Resource.builtIn(Secret.class, NONE, NONE, NONE),
            Resource.builtIn(ServiceAccount.class, List.of("sa"), NONE, NONE),
            Resource.builtIn(io.fabric8.kubernetes.api.model.Event.class, List.of("ev"), NONE, NONE),
            Resource.builtIn(PersistentVolume.class, List.of("pv"), STATUS, NONE),
            Resource.builtIn(PersistentVolumeClaim.class, List.of("pvc"), STATUS, NONE),
            Resource.builtIn(ResourceQuota.class, List.of("quota"), STATUS, NONE),
            Resource.builtIn(LimitRange.class, List.of("limits"), NONE, NONE),
            Resource.builtIn(PodTemplate.class, NONE, NONE, NONE),
            Resource.builtIn(ReplicationController.class, List.of("rc"), STATUS, ALL),
            Resource.builtIn(Deployment.class, List.of("deploy"), STATUS, ALL),
            Resource.builtIn(StatefulSet.class, List.of("sts"), STATUS, ALL),
            Resource.builtIn(ReplicaSet.class, List.of("rs"), STATUS, ALL),
            Resource.builtIn(DaemonSet.class, List.of("ds"), STATUS, ALL),
            Resource.builtIn(io.fabric8.kubernetes.api.model.batch.v1.Job.class, NONE, STATUS, ALL),
            Resource.builtIn(CronJob.class, List.of("cj"), STATUS, ALL),
            Resource.builtIn(HorizontalPodAutoscaler.class, List.of("hpa"), STATUS, ALL),
            Resource.builtIn(Lease.class, NONE, NONE, NONE),
            Resource.builtIn(io.fabric8.kubernetes.api.model.events.v1.Event.class, List.of("ev"), NONE, NONE),
            Resource.builtIn(PodDisruptionBudget.class, List.of("pdb"), STATUS, NONE),
            Resource.builtIn(PriorityClass.class, List.of("pc"), NONE, NONE),
            Resource.builtIn(StorageClass.class, List.of("sc"), NONE, NONE),
            Resource.builtIn(CSIDriver.class, NONE, NONE, NONE),
            Resource.builtIn(CSINode.class, NONE, NONE, NONE),
            Resource.builtIn(CSIStorageCapacity.class, NONE, NONE, NONE),
            Resource.builtIn(VolumeAttachment.class, NONE, STATUS, NONE),
            // resource.k8s.io/v1 (DRA, stable since 1.34), which fabric8's model does not have yet; the one version
            // served, since the store keeps each version apart and converts none.
            Resource.withoutModel(DRA_GROUP, "v1", "DeviceClass", "deviceclasses", false, NONE),
            Resource.withoutModel(DRA_GROUP, "v1", "ResourceClaim", "resourceclaims", true, STATUS),
            Resource.withoutModel(DRA_GROUP, "v1", "ResourceClaimTemplate", "resourceclaimtemplates", true, NONE),
            Resource.withoutModel(DRA_GROUP, "v1", "ResourceSlice", "resourceslices", false, NONE),
            // DeviceTaintRules, alpha in 1.34 (the DRADeviceTaints gate and the v1alpha3 API on), served so that a
            // scheduler's handling of them can be seen; v1 stays the group's preferred version, being listed first.
            Resource.withoutModel(DRA_GROUP, "v1alpha3", "DeviceTaintRule", "devicetaintrules", false, NONE),
            // Kubernetes 1.36's alpha Workload API (gate GenericWorkload), which Muster's scheduler gang-schedules
            // by; served though the emulator otherwise imitates 1.34. v1, PriorityClasses', stays the group's
            // preferred version, being listed first.
            Resource.withoutModel(WorkloadApiAdmission.GROUP, WorkloadApiAdmission.VERSION, "Workload", "workloads",
                    true, NONE),
            Resource.withoutModel(WorkloadApiAdmission.GROUP, WorkloadApiAdmission.VERSION, "PodGroup", "podgroups",
                    true, STATUS),
            Resource.builtIn(NetworkPolicy.class, List.of("netpol"), NONE, NONE),
            Resource.builtIn(Ingress.class, List.of("ing"), STATUS, NONE),
            Resource.builtIn(IngressClass.class, NONE, NONE, NONE),
            Resource.builtIn(EndpointSlice.class, NONE, NONE, NONE),
            Resource.builtIn(Role.class, NONE, NONE, NONE),
            Resource.builtIn(RoleBinding.class, NONE, NONE, NONE),
            Resource.builtIn(ClusterRole.class, NONE, NONE, NONE),
            Resource.builtIn(ClusterRoleBinding.class, NONE, NONE, NONE),
            Resource.builtIn(CustomResourceDefinition.class, List.of("crd", "crds"), STATUS, NONE),
            // Access reviews: create-only, as in kube-apiserver; AccessReviews answers them.
            Resource.builtIn(TokenReview.class, CREATE_ONLY, NONE, NONE, NONE),
            Resource.builtIn(SelfSubjectReview.class, CREATE_ONLY, NONE, NONE, NONE),
            Resource.builtIn(SubjectAccessReview.class, CREATE_ONLY, NONE, NONE, NONE),
            Resource.builtIn(SelfSubjectAccessReview.class, CREATE_ONLY, NONE, NONE, NONE),
            Resource.builtIn(LocalSubjectAccessReview.class, CREATE_ONLY, NONE, NONE, NONE));

    /** The Eviction kind the pods/eviction subresource takes, served under pods but of group policy. */
    static final Resource EVICTION = Resource.builtIn(Eviction.class, CREATE_ONLY, NONE, NONE, NONE);

    private static final Map<String, Resource> BUILT_IN_BY_PATH = new HashMap<>();

    static {
        BUILT_INS.forEach(r -> BUILT_IN_BY_PATH.put(key(r.group(), r.version(), r.plural()), r));
    }

    /** Whether a resource is one of the built-in kinds, not a custom resource. */
    static boolean isBuiltIn(Resource resource) {
        return BUILT_IN_BY_PATH.containsKey(key(resource.group(), resource.version(), resource.plural()));
    }

    private final Supplier<List<CustomResourceDefinition>> storedCrds;
    private final Function<String, CustomResourceDefinition> storedCrd;

    /**
     * @param storedCrds the CRDs currently in the emulator
     * @param storedCrd  the stored CRD of a name ({@code plural.group}), or null; called on every request, so cheap
     */
    public ServedResources(Supplier<List<CustomResourceDefinition>> storedCrds,
                    Function<String, CustomResourceDefinition> storedCrd) {
        this.storedCrds = storedCrds;
        this.storedCrd = storedCrd;
    }

    /** Every resource served now: the built-ins, then each served version of each stored CRD. */
    public List<Resource> all() {
        List<Resource> all = new ArrayList<>(BUILT_INS);
        for (CustomResourceDefinition crd : storedCrds.get()) {
            all.addAll(ofCrd(crd));
        }
        return all;
    }

    /** The resource of a group ({@code ""} or null for the core group), version and plural, if it is served. */
    public Optional<Resource> find(String group, String version, String plural) {
        String g = group == null ? "" : group;
        Resource builtIn = BUILT_IN_BY_PATH.get(key(g, version, plural));
        if (builtIn != null || g.isEmpty()) {
            return Optional.ofNullable(builtIn);
        }
        CustomResourceDefinition crd = storedCrd.apply(plural + "." + g);
        return crd == null ? Optional.empty() : ofCrd(crd).stream().filter(r -> r.version().equals(version)).findFirst();
    }

    private static List<Resource> ofCrd(CustomResourceDefinition crd) {
        var names = crd.getSpec().getNames();
        boolean namespaced = "Namespaced".equals(crd.getSpec().getScope());
        List<Resource> resources = new ArrayList<>();
        for (CustomResourceDefinitionVersion version : crd.getSpec().getVersions()) {
            if (Boolean.FALSE.equals(version.getServed())) {
                continue;
            }
            boolean status = version.getSubresources() != null && version.getSubresources().getStatus() != null;
            resources.add(new Resource(crd.getSpec().getGroup(), version.getName(), names.getPlural(),
                    names.getSingular(), names.getKind(), namespaced, ALL_VERBS, listOrNone(names.getShortNames()),
                    status ? STATUS : NONE, listOrNone(names.getCategories())));
        }
        return resources;
    }

    private static List<String> listOrNone(List<String> list) {
        return list == null ? NONE : list;
    }

    private static String key(String group, String version, String plural) {
        return group + "/" + version + "/" + plural;
    }
}
