package dev.muster.helm;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code helm template} of the assembled chart with its default values. */
class ChartDefaultsTest {

    /**
     * Every permission the manager has cluster-wide, one line per rule. Adding a verb or a resource here
     * is a conscious change: say in clusterrole.yaml which component calls it.
     */
    static final List<String> EXPECTED_LEASE_RULES = List.of(
            "coordination.k8s.io leases: create",
            "coordination.k8s.io leases [muster-manager]: get patch");

    private static ChartRenderer.Rendered rendered;

    @BeforeAll
    static void render() {
        rendered = ChartRenderer.render();
    }

    @Test
    void crdsInTheChartAreTheFilesGeneratedByTheCrdModule() throws IOException {
        Map<String, String> generated = generatedCrdFiles();
        assertThat(generated).containsOnlyKeys(
                "jobs.batch.muster.dev-v1.yml", "podgroups.scheduling.muster.dev-v1.yml",
                "queues.scheduling.muster.dev-v1.yml");

        // The build copied exactly those files, byte for byte, into the chart's crds/.
        Path crdsDirectory = ChartRenderer.chartDirectory().resolve("crds");
        try (Stream<Path> files = Files.list(crdsDirectory)) {
            assertThat(files.filter(ChartBuild::isManifest).map(f -> f.getFileName().toString()))
                    .containsExactlyInAnyOrderElementsOf(generated.keySet());
        }
        for (var file : generated.entrySet()) {
            assertThat(Files.readString(crdsDirectory.resolve(file.getKey()))).isEqualTo(file.getValue());
        }

        // And Helm loads them as the chart's CRDs (helm show crds prints each file followed by a newline).
        String expected = generated.values().stream().map(text -> text + "\n").collect(Collectors.joining());
        assertThat(ChartRenderer.crds()).isEqualTo(expected);

        CustomResourceDefinition jobs = ChartRenderer.parse(generated.get("jobs.batch.muster.dev-v1.yml"),
                CustomResourceDefinition.class);
        assertThat(jobs.getSpec().getGroup()).isEqualTo("batch.muster.dev");
        assertThat(jobs.getSpec().getNames().getKind()).isEqualTo("Job");
        assertThat(jobs.getSpec().getNames().getShortNames()).contains("mjob", "mj");
        assertThat(jobs.getSpec().getScope()).isEqualTo("Namespaced");
        assertThat(jobs.getSpec().getVersions()).singleElement().satisfies(version -> {
            assertThat(version.getName()).isEqualTo("v1alpha1");
            assertThat(version.getSubresources().getStatus()).isNotNull();
        });

        CustomResourceDefinition podGroups = ChartRenderer.parse(
                generated.get("podgroups.scheduling.muster.dev-v1.yml"), CustomResourceDefinition.class);
        assertThat(podGroups.getSpec().getGroup()).isEqualTo("scheduling.muster.dev");
        assertThat(podGroups.getSpec().getNames().getKind()).isEqualTo("PodGroup");
        assertThat(podGroups.getSpec().getNames().getShortNames()).contains("pg");
        assertThat(podGroups.getSpec().getScope()).isEqualTo("Namespaced");
        assertThat(podGroups.getSpec().getVersions()).singleElement().satisfies(version -> {
            assertThat(version.getName()).isEqualTo("v1alpha1");
            assertThat(version.getSubresources().getStatus()).isNotNull();
        });

        CustomResourceDefinition queues = ChartRenderer.parse(
                generated.get("queues.scheduling.muster.dev-v1.yml"), CustomResourceDefinition.class);
        assertThat(queues.getSpec().getGroup()).isEqualTo("scheduling.muster.dev");
        assertThat(queues.getSpec().getNames().getKind()).isEqualTo("Queue");
        assertThat(queues.getSpec().getNames().getShortNames()).containsExactly("q");
        assertThat(queues.getSpec().getScope()).isEqualTo("Cluster");
        assertThat(queues.getSpec().getVersions()).singleElement().satisfies(version -> {
            assertThat(version.getName()).isEqualTo("v1alpha1");
            assertThat(version.getSubresources().getStatus()).isNotNull();
        });

        // CRDs live in crds/ only, never among the templates (Helm would then upgrade and delete them).
        assertThat(rendered.ofKind("CustomResourceDefinition")).isEmpty();
    }

    @Test
    void rendersExactlyTheExpectedObjects() {
        assertThat(rendered.objects()).extracting(o -> o.getKind() + "/" + o.getMetadata().getName())
                .containsExactlyInAnyOrder(
                        "ServiceAccount/muster",
                        "ConfigMap/muster-config",
                        "ClusterRole/muster",
                        "ClusterRoleBinding/muster",
                        "Role/muster-leader-election",
                        "RoleBinding/muster-leader-election",
                        "Service/muster",
                        "Deployment/muster",
                        "PodDisruptionBudget/muster");
        assertThat(rendered.objects())
                .filteredOn(o -> !o.getKind().startsWith("Cluster"))
                .allSatisfy(o -> assertThat(o.getMetadata().getNamespace()).isEqualTo(ChartRenderer.NAMESPACE));
    }

    @Test
    void everyFieldIsOneTheKubernetesApiKnows() {
        ChartRenderer.Rendered everything = ChartRenderer.render(Map.of(
                "priorityClassName", "high", "serviceMonitor.enabled", true,
                "imagePullSecrets[0].name", "registry", "tolerations[0].operator", "Exists",
                "nodeSelector.pool", "system", "extraEnv[0].name", "LOGGING_LEVEL_DEV_MUSTER",
                "extraEnv[0].value", "DEBUG"));
        for (ChartRenderer.Rendered r : List.of(rendered, everything)) {
            for (var object : r.objects()) {
                if (object instanceof GenericKubernetesResource) {
                    continue; // a kind fabric8 has no model of (ServiceMonitor): nothing to check against
                }
                assertThat(ChartRenderer.unknownFields(object))
                        .as("unknown fields in %s/%s", object.getKind(), object.getMetadata().getName()).isEmpty();
            }
        }
    }

    @Test
    void deploymentRunsTheManagerWithProbesOnActuatorHealthGroups() {
        Deployment deployment = rendered.one(Deployment.class);
        assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
        PodSpec pod = deployment.getSpec().getTemplate().getSpec();
        assertThat(pod.getServiceAccountName()).isEqualTo(rendered.one(ServiceAccount.class).getMetadata().getName());
        Container manager = pod.getContainers().get(0);
        assertThat(pod.getContainers()).hasSize(1);
        assertThat(manager.getImage()).isEqualTo("ghcr.io/muster-dev/muster-manager:0.1.0");
        assertThat(manager.getPorts()).singleElement().satisfies(port -> {
            assertThat(port.getName()).isEqualTo("http");
            assertThat(port.getContainerPort()).isEqualTo(8080);
        });

        assertHttpProbe(manager.getStartupProbe(), "/actuator/health/liveness");
        assertHttpProbe(manager.getLivenessProbe(), "/actuator/health/liveness");
        assertHttpProbe(manager.getReadinessProbe(), "/actuator/health/readiness");

        assertThat(manager.getResources().getRequests()).containsKeys("cpu", "memory");
        assertThat(manager.getResources().getLimits()).containsKey("memory");

        // Spread the replicas, so one node going away does not take leader and standby together.
        var preferred = pod.getAffinity().getPodAntiAffinity().getPreferredDuringSchedulingIgnoredDuringExecution();
        assertThat(preferred).singleElement().satisfies(term -> {
            assertThat(term.getPodAffinityTerm().getTopologyKey()).isEqualTo("kubernetes.io/hostname");
            assertThat(term.getPodAffinityTerm().getLabelSelector().getMatchLabels())
                    .isEqualTo(deployment.getSpec().getSelector().getMatchLabels());
        });
        assertThat(pod.getPriorityClassName()).isNull();
    }

    @Test
    void deploymentPassesNamespaceAndPodNameFromTheDownwardApi() {
        Container manager = manager(rendered);
        Map<String, EnvVar> env = manager.getEnv().stream().collect(Collectors.toMap(EnvVar::getName, e -> e));
        assertThat(env.get("POD_NAMESPACE").getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.namespace");
        assertThat(env.get("HOSTNAME").getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.name");
    }

    @Test
    void deploymentHasTheRestrictedSecurityContext() {
        Deployment deployment = rendered.one(Deployment.class);
        PodSpec pod = deployment.getSpec().getTemplate().getSpec();
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(65532L);
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");

        SecurityContext container = manager(rendered).getSecurityContext();
        assertThat(container.getRunAsNonRoot()).isTrue();
        assertThat(container.getRunAsUser()).isEqualTo(65532L);
        assertThat(container.getReadOnlyRootFilesystem()).isTrue();
        assertThat(container.getAllowPrivilegeEscalation()).isFalse();
        assertThat(container.getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(container.getCapabilities().getAdd()).isNullOrEmpty();
        assertThat(container.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(container.getPrivileged()).isNull();

        // A read-only root needs a writable /tmp (Tomcat's work directory, JVM temp files).
        Map<String, Volume> volumes = volumes(deployment);
        assertThat(volumes.get("tmp").getEmptyDir()).isNotNull();
        assertThat(mounts(rendered).get("tmp").getMountPath()).isEqualTo("/tmp");
    }

    @Test
    void configMapIsMountedReadOnlyAndPassedToSpring() {
        Deployment deployment = rendered.one(Deployment.class);
        ConfigMap config = rendered.one(ConfigMap.class);

        assertThat(volumes(deployment).get("config").getConfigMap().getName()).isEqualTo(config.getMetadata().getName());
        VolumeMount mount = mounts(rendered).get("config");
        assertThat(mount.getReadOnly()).isTrue();
        EnvVar location = manager(rendered).getEnv().stream()
                .filter(e -> e.getName().equals("SPRING_CONFIG_ADDITIONAL_LOCATION")).findFirst().orElseThrow();
        assertThat(location.getValue()).isEqualTo("file:" + mount.getMountPath() + "/application.yaml");

        // Defaults: the client's rate limit, stated so an operator sees the knob, and the release's Lease name;
        // everything else keeps the manager's own defaults.
        assertThat(ChartRenderer.parse(config.getData().get("application.yaml"), Map.class))
                .isEqualTo(Map.of("muster", Map.of(
                        "kubernetes", Map.of("qps", 500, "burst", 1000),
                        "leader-election", Map.of("lease-name", "muster-manager"))));

        assertThat(deployment.getSpec().getTemplate().getMetadata().getAnnotations().get("checksum/config"))
                .matches("[0-9a-f]{64}");
    }

    /**
     * Every permission of the chart's ClusterRole and Role is a row of the RBAC table of docs/security.md, which
     * says why it is needed, and every row is in the chart: compared both ways, one permission (kind, API group,
     * resource, verb) at a time. RbacUsageEndToEndTest compares the same table with the API requests the manager
     * makes, so a permission the code stops using fails there and, once its row goes, here.
     */
    @Test
    void clusterRoleAndRoleGrantExactlyThePermissionsDocumentedInSecurityMd() throws IOException {
        Set<String> chart = new TreeSet<>();
        rendered.objects().forEach(o -> {
            if (o instanceof ClusterRole cr) {
                chart.addAll(RbacTable.permissions("ClusterRole", cr.getRules()));
            } else if (o instanceof Role r) {
                chart.addAll(RbacTable.permissions("Role", r.getRules()));
            }
        });
        assertThat(chart).isNotEmpty().isEqualTo(RbacTable.read().keySet());

        ClusterRole role = rendered.one(ClusterRole.class);
        assertThat(role.getAggregationRule()).isNull();

        ClusterRoleBinding binding = rendered.one(ClusterRoleBinding.class);
        assertThat(binding.getRoleRef().getKind()).isEqualTo("ClusterRole");
        assertThat(binding.getRoleRef().getName()).isEqualTo(role.getMetadata().getName());
        assertThat(binding.getSubjects()).singleElement().satisfies(subject -> {
            assertThat(subject.getKind()).isEqualTo("ServiceAccount");
            assertThat(subject.getName()).isEqualTo("muster");
            assertThat(subject.getNamespace()).isEqualTo(ChartRenderer.NAMESPACE);
        });
    }

    @Test
    void noRoleUsesWildcardsAndSecretsAreCreateOnly() {
        List<PolicyRule> rules = new ArrayList<>();
        rendered.objects().forEach(o -> {
            if (o instanceof ClusterRole cr) {
                rules.addAll(cr.getRules());
            } else if (o instanceof Role r) {
                rules.addAll(r.getRules());
            }
        });
        assertThat(rules).isNotEmpty().allSatisfy(rule -> {
            assertThat(rule.getApiGroups()).doesNotContain("*");
            assertThat(rule.getResources()).isNotEmpty().doesNotContain("*");
            if (rule.getResources().contains("secrets")) {
                // The ssh plugin's key Secrets: created, never read; the garbage collector deletes them.
                assertThat(rule.getVerbs()).containsExactly("create");
            }
            assertThat(rule.getVerbs()).isNotEmpty().doesNotContain("*", "escalate", "bind", "impersonate");
            assertThat(rule.getNonResourceURLs()).isNullOrEmpty();
        });
    }

    @Test
    void leaderElectionRoleGrantsOnlyTheReleaseLeaseInTheReleaseNamespace() {
        Role role = rendered.one(Role.class);
        assertThat(role.getMetadata().getNamespace()).isEqualTo(ChartRenderer.NAMESPACE);
        assertThat(describe(role.getRules())).containsExactlyInAnyOrderElementsOf(EXPECTED_LEASE_RULES);

        RoleBinding binding = rendered.one(RoleBinding.class);
        assertThat(binding.getMetadata().getNamespace()).isEqualTo(ChartRenderer.NAMESPACE);
        assertThat(binding.getRoleRef().getKind()).isEqualTo("Role");
        assertThat(binding.getRoleRef().getName()).isEqualTo(role.getMetadata().getName());
        assertThat(binding.getSubjects()).singleElement().satisfies(subject -> {
            assertThat(subject.getName()).isEqualTo("muster");
            assertThat(subject.getNamespace()).isEqualTo(ChartRenderer.NAMESPACE);
        });
    }

    @Test
    void serviceExposesMetricsAndOptionalObjectsFollowTheDefaults() {
        Deployment deployment = rendered.one(Deployment.class);
        Service service = rendered.one(Service.class);
        assertThat(service.getSpec().getType()).isEqualTo("ClusterIP");
        assertThat(service.getSpec().getSelector()).isEqualTo(deployment.getSpec().getSelector().getMatchLabels());
        assertThat(service.getSpec().getPorts()).singleElement().satisfies(port -> {
            assertThat(port.getPort()).isEqualTo(8080);
            assertThat(port.getTargetPort().getStrVal()).isEqualTo("http");
        });

        assertThat(rendered.ofKind("ServiceMonitor")).isEmpty();

        PodDisruptionBudget pdb = rendered.one(PodDisruptionBudget.class);
        assertThat(pdb.getSpec().getMinAvailable().getIntVal()).isEqualTo(1);
        assertThat(pdb.getSpec().getSelector().getMatchLabels())
                .isEqualTo(deployment.getSpec().getSelector().getMatchLabels());
    }

    static Container manager(ChartRenderer.Rendered rendered) {
        return rendered.one(Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0);
    }

    static Map<String, Volume> volumes(Deployment deployment) {
        return deployment.getSpec().getTemplate().getSpec().getVolumes().stream()
                .collect(Collectors.toMap(Volume::getName, v -> v));
    }

    static Map<String, VolumeMount> mounts(ChartRenderer.Rendered rendered) {
        return manager(rendered).getVolumeMounts().stream().collect(Collectors.toMap(VolumeMount::getName, m -> m));
    }

    /** "group resource [names]: sorted verbs", one line per group and resource of each rule. */
    static List<String> describe(List<PolicyRule> rules) {
        List<String> lines = new ArrayList<>();
        for (PolicyRule rule : rules) {
            for (String group : rule.getApiGroups()) {
                for (String resource : rule.getResources()) {
                    String names = rule.getResourceNames() == null || rule.getResourceNames().isEmpty()
                            ? "" : " " + rule.getResourceNames();
                    lines.add((group.isEmpty() ? "core" : group) + " " + resource + names + ": "
                            + rule.getVerbs().stream().sorted().collect(Collectors.joining(" ")));
                }
            }
        }
        return lines;
    }

    private static void assertHttpProbe(Probe probe, String path) {
        assertThat(probe).as("probe on %s", path).isNotNull();
        assertThat(probe.getHttpGet().getPath()).isEqualTo(path);
        assertThat(probe.getHttpGet().getPort().getStrVal()).isEqualTo("http");
    }

    /** The crd module's generated CRD files as text, by name in name order. */
    private static Map<String, String> generatedCrdFiles() throws IOException {
        Map<String, String> files = new TreeMap<>();
        ChartBuild.generatedCrds().forEach((name, bytes) -> files.put(name, new String(bytes, StandardCharsets.UTF_8)));
        return files;
    }
}
