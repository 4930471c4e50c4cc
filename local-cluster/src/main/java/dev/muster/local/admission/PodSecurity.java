package dev.muster.local.admission;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * kube-apiserver's PodSecurity admission of a pod being created, from the Pod Security Standards labels of its
 * namespace ({@code pod-security.kubernetes.io/enforce}, {@code warn} and their {@code -version}s): a pod that
 * violates the {@code enforce} level is refused, one that violates the {@code warn} level is created with a
 * warning, each in kube's words and in its order of checks
 * (<a href="https://github.com/kubernetes/kubernetes/tree/master/staging/src/k8s.io/pod-security-admission">pod-security-admission</a>).
 *
 * <p>The checks are those of the emulator's Kubernetes version (1.34) with its default configuration: no exempt
 * namespace, user or runtime class, and the relaxations for pods in user namespaces off. A {@code -version} label
 * other than {@code latest} is named in the messages as kube names it, but the pod is checked against the latest
 * rules. The {@code audit} mode writes to an audit log the emulator does not keep, so it is not evaluated.
 */
public final class PodSecurity {
    private static final String LABEL_PREFIX = "pod-security.kubernetes.io/";
    private static final Pattern VERSION = Pattern.compile("v1\\.(0|[1-9][0-9]*)");
    private static final String LATEST = "latest";

    private static final Set<String> BASELINE_CAPABILITIES = Set.of("AUDIT_WRITE", "CHOWN", "DAC_OVERRIDE", "FOWNER",
            "FSETID", "KILL", "MKNOD", "NET_BIND_SERVICE", "SETFCAP", "SETGID", "SETPCAP", "SETUID", "SYS_CHROOT");
    private static final Set<String> SAFE_SYSCTLS = Set.of("kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range",
            "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range", "net.ipv4.ip_unprivileged_port_start",
            "net.ipv4.ip_local_reserved_ports", "net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout",
            "net.ipv4.tcp_keepalive_intvl", "net.ipv4.tcp_keepalive_probes", "net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem");
    private static final Set<String> SELINUX_TYPES = Set.of("", "container_t", "container_init_t", "container_kvm_t",
            "container_engine_t");
    private static final Set<String> PROFILE_TYPES = Set.of("RuntimeDefault", "Localhost");
    private static final String APPARMOR_ANNOTATION_PREFIX = "container.apparmor.security.beta.kubernetes.io/";
    private static final Set<String> RESTRICTED_VOLUME_SOURCES = Set.of("configMap", "csi", "downwardAPI", "emptyDir",
            "ephemeral", "image", "persistentVolumeClaim", "projected", "secret");
    /** The volume sources restricted names, in the order it looks for them when a volume is not allowed. */
    private static final List<String> NAMED_VOLUME_SOURCES = List.of("hostPath", "gcePersistentDisk",
            "awsElasticBlockStore", "gitRepo", "nfs", "iscsi", "glusterfs", "rbd", "flexVolume", "cinder", "cephfs",
            "flocker", "fc", "azureFile", "vsphereVolume", "quobyte", "azureDisk", "photonPersistentDisk",
            "portworxVolume", "scaleIO", "storageos");

    /*
     * kube runs the checks of a level in the order of their ids: baseline's first, then restricted's, restricted
     * leaving out the baseline checks it replaces with stricter ones (capabilities, hostPath volumes, seccomp).
     */
    private static final List<Function<JsonNode, Optional<Violation>>> BASELINE = List.of(
            PodSecurity::appArmorProfile, PodSecurity::capabilitiesBaseline, PodSecurity::hostNamespaces,
            PodSecurity::hostPathVolumes, PodSecurity::hostPorts, PodSecurity::hostProbesAndHostLifecycle,
            PodSecurity::privileged, PodSecurity::procMount, PodSecurity::seLinuxOptions,
            PodSecurity::seccompProfileBaseline, PodSecurity::sysctls, PodSecurity::windowsHostProcess);
    private static final List<Function<JsonNode, Optional<Violation>>> RESTRICTED = List.of(
            PodSecurity::appArmorProfile, PodSecurity::hostNamespaces, PodSecurity::hostPorts,
            PodSecurity::hostProbesAndHostLifecycle, PodSecurity::privileged, PodSecurity::procMount,
            PodSecurity::seLinuxOptions, PodSecurity::sysctls, PodSecurity::windowsHostProcess,
            PodSecurity::allowPrivilegeEscalation, PodSecurity::capabilitiesRestricted, PodSecurity::restrictedVolumes,
            PodSecurity::runAsNonRoot, PodSecurity::runAsUser, PodSecurity::seccompProfileRestricted);

    private PodSecurity() {
    }

    /** A Pod Security Standards level, least strict first. */
    public enum Level {
        /** Anything goes. */
        PRIVILEGED,
        /** Known privilege escalations are refused. */
        BASELINE,
        /** Baseline, and the pod hardened as current practice wants. */
        RESTRICTED;

        /** The level as labels and messages spell it. */
        @Override
        public String toString() {
            return name().toLowerCase();
        }

        private static Optional<Level> parse(String label) {
            return Stream.of(values()).filter(level -> level.toString().equals(label)).findFirst();
        }
    }

    /** A level at a policy version ({@code latest} or {@code v1.N}), written {@code restricted:latest} as kube writes it. */
    public record LevelVersion(Level level, String version) {
        @Override
        public String toString() {
            return level + ":" + version;
        }
    }

    /**
     * The levels a namespace's labels ask for. As kube: an unknown {@code enforce} level is {@code restricted}
     * (refusing rather than letting through), an unknown {@code warn} level {@code privileged}, an unknown version
     * {@code latest}; without its own label, {@code warn} follows an {@code enforce} level stricter than it.
     */
    public record Policy(LevelVersion enforce, LevelVersion warn) {
        /** The policy of a namespace with these labels; none at all is {@code privileged} everywhere. */
        public static Policy of(Map<String, String> labels) {
            String enforceLabel = labels.get(LABEL_PREFIX + "enforce");
            String warnLabel = labels.get(LABEL_PREFIX + "warn");
            String warnVersionLabel = labels.get(LABEL_PREFIX + "warn-version");
            LevelVersion enforce = new LevelVersion(
                    enforceLabel == null ? Level.PRIVILEGED : Level.parse(enforceLabel).orElse(Level.RESTRICTED),
                    version(labels.get(LABEL_PREFIX + "enforce-version")));
            LevelVersion warn = new LevelVersion(
                    warnLabel == null ? Level.PRIVILEGED : Level.parse(warnLabel).orElse(Level.PRIVILEGED),
                    version(warnVersionLabel));
            boolean enforceLevelValid = enforceLabel != null && Level.parse(enforceLabel).isPresent();
            if (warnLabel == null && enforceLevelValid && enforce.level().compareTo(warn.level()) > 0) {
                warn = new LevelVersion(enforce.level(), warnVersionLabel == null ? enforce.version() : warn.version());
            }
            return new Policy(enforce, warn);
        }

        private static String version(String label) {
            return label != null && VERSION.matcher(label).matches() ? label : LATEST;
        }
    }

    /** A check the pod fails: its reason, and the containers, fields or values that fail it (may be empty). */
    public record Violation(String reason, String detail) {
        /** As kube joins it into its messages: {@code reason (detail)}. */
        @Override
        public String toString() {
            return detail.isEmpty() ? reason : reason + " (" + detail + ")";
        }
    }

    /**
     * What PodSecurity answers to a pod's creation: a refusal, the message of a 403 {@code Forbidden}
     * ({@code violates PodSecurity "restricted:latest": ...}); or the pod admitted with the {@code Warning}s to send
     * ({@code would violate PodSecurity "baseline:latest": ...}), none when it meets the warn level.
     */
    public record Decision(Optional<String> refusal, List<String> warnings) {
    }

    /** The decision on creating {@code pod} (JSON) in a namespace with these labels. */
    public static Decision admit(Map<String, String> namespaceLabels, JsonNode pod) {
        Policy policy = Policy.of(namespaceLabels);
        List<Violation> enforced = violations(policy.enforce().level(), pod);
        if (!enforced.isEmpty()) {
            return new Decision(Optional.of("violates PodSecurity \"" + policy.enforce() + "\": " + joined(enforced)),
                    List.of());
        }
        List<Violation> warned = violations(policy.warn().level(), pod);
        return new Decision(Optional.empty(), warned.isEmpty() ? List.of()
                : List.of("would violate PodSecurity \"" + policy.warn() + "\": " + joined(warned)));
    }

    /** The checks of {@code level} that {@code pod} (JSON) fails, in kube's order. */
    public static List<Violation> violations(Level level, JsonNode pod) {
        List<Function<JsonNode, Optional<Violation>>> checks = switch (level) {
            case PRIVILEGED -> List.of();
            case BASELINE -> BASELINE;
            case RESTRICTED -> RESTRICTED;
        };
        return checks.stream().map(check -> check.apply(pod)).flatMap(Optional::stream).toList();
    }

    private static String joined(List<Violation> violations) {
        return violations.stream().map(Violation::toString).collect(Collectors.joining(", "));
    }

    private static Optional<Violation> appArmorProfile(JsonNode pod) {
        List<String> setters = new ArrayList<>();
        Set<String> values = new TreeSet<>();
        JsonNode podProfile = podContext(pod).path("appArmorProfile");
        if (isSet(podProfile) && !PROFILE_TYPES.contains(podProfile.path("type").asText(""))) {
            setters.add("pod");
            values.add(podProfile.path("type").asText(""));
        }
        List<String> containers = new ArrayList<>();
        for (JsonNode container : containers(pod)) {
            JsonNode profile = context(container).path("appArmorProfile");
            if (isSet(profile) && !PROFILE_TYPES.contains(profile.path("type").asText(""))) {
                containers.add(name(container));
                values.add(profile.path("type").asText(""));
            }
        }
        if (!containers.isEmpty()) {
            setters.add(pluralize("container", "containers", containers.size()) + " " + joinQuote(containers));
        }
        Set<String> annotations = new TreeSet<>();
        pod.path("metadata").path("annotations").fields().forEachRemaining(annotation -> {
            String value = annotation.getValue().asText("");
            if (annotation.getKey().startsWith(APPARMOR_ANNOTATION_PREFIX) && !value.isEmpty()
                    && !value.equals("runtime/default") && !value.startsWith("localhost/")) {
                annotations.add(annotation.getKey() + "=" + goQuote(value));
            }
        });
        List<String> badValues = new ArrayList<>(values);
        if (!annotations.isEmpty()) {
            badValues.addAll(annotations);
            setters.add(pluralize("annotation", "annotations", annotations.size()));
        }
        return setters.isEmpty() ? Optional.empty() : Optional.of(new Violation(
                pluralize("forbidden AppArmor profile", "forbidden AppArmor profiles", badValues.size()),
                String.join(" and ", setters) + " must not set AppArmor profile type to " + joinQuote(badValues)));
    }

    private static Optional<Violation> capabilitiesBaseline(JsonNode pod) {
        List<String> containers = new ArrayList<>();
        Set<String> added = new TreeSet<>();
        for (JsonNode container : containers(pod)) {
            Set<String> forbidden = new TreeSet<>();
            context(container).path("capabilities").path("add").forEach(capability -> {
                if (!BASELINE_CAPABILITIES.contains(capability.asText())) {
                    forbidden.add(capability.asText());
                }
            });
            if (!forbidden.isEmpty()) {
                containers.add(name(container));
                added.addAll(forbidden);
            }
        }
        return containers.isEmpty() ? Optional.empty() : Optional.of(new Violation("non-default capabilities",
                pluralize("container", "containers", containers.size()) + " " + joinQuote(containers)
                        + " must not include " + joinQuote(added) + " in securityContext.capabilities.add"));
    }

    private static Optional<Violation> hostNamespaces(JsonNode pod) {
        List<String> shared = Stream.of("hostNetwork", "hostPID", "hostIPC")
                .filter(field -> isTrue(pod.path("spec").path(field))).map(field -> field + "=true").toList();
        return shared.isEmpty() ? Optional.empty() : Optional.of(new Violation("host namespaces", String.join(", ", shared)));
    }

    private static Optional<Violation> hostPathVolumes(JsonNode pod) {
        List<String> volumes = new ArrayList<>();
        pod.path("spec").path("volumes").forEach(volume -> {
            if (isSet(volume.path("hostPath"))) {
                volumes.add(volume.path("name").asText(""));
            }
        });
        return volumes.isEmpty() ? Optional.empty() : Optional.of(new Violation("hostPath volumes",
                pluralize("volume", "volumes", volumes.size()) + " " + joinQuote(volumes)));
    }

    private static Optional<Violation> hostPorts(JsonNode pod) {
        List<String> containers = new ArrayList<>();
        Set<String> ports = new TreeSet<>();
        for (JsonNode container : containers(pod)) {
            boolean uses = false;
            for (JsonNode port : container.path("ports")) {
                if (port.path("hostPort").asInt(0) != 0) {
                    uses = true;
                    ports.add(String.valueOf(port.path("hostPort").asInt()));
                }
            }
            if (uses) {
                containers.add(name(container));
            }
        }
        // kube sorts the ports as strings: 10000 before 80.
        return containers.isEmpty() ? Optional.empty() : Optional.of(new Violation("hostPort",
                pluralize("container", "containers", containers.size()) + " " + joinQuote(containers) + " "
                        + pluralize("uses", "use", containers.size()) + " "
                        + pluralize("hostPort", "hostPorts", ports.size()) + " " + String.join(", ", ports)));
    }

    private static Optional<Violation> hostProbesAndHostLifecycle(JsonNode pod) {
        Set<String> containers = new TreeSet<>();
        Set<String> hosts = new TreeSet<>();
        for (JsonNode container : containers(pod)) {
            Stream.of(container.path("livenessProbe"), container.path("readinessProbe"), container.path("startupProbe"),
                            container.path("lifecycle").path("postStart"), container.path("lifecycle").path("preStop"))
                    .flatMap(handler -> Stream.of(handler.path("httpGet"), handler.path("tcpSocket")))
                    .map(action -> action.path("host").asText(""))
                    .filter(host -> !host.isEmpty())
                    .forEach(host -> {
                        containers.add(name(container));
                        hosts.add(host);
                    });
        }
        return containers.isEmpty() ? Optional.empty() : Optional.of(new Violation("probe or lifecycle host",
                pluralize("container", "containers", containers.size()) + " " + joinQuote(containers) + " "
                        + pluralize("uses", "use", containers.size()) + " "
                        + pluralize("probe or lifecycle host", "probe or lifecycle hosts", hosts.size()) + " "
                        + joinQuote(hosts)));
    }

    private static Optional<Violation> privileged(JsonNode pod) {
        List<String> containers = containers(pod).stream().filter(c -> isTrue(context(c).path("privileged")))
                .map(PodSecurity::name).toList();
        return containers.isEmpty() ? Optional.empty() : Optional.of(new Violation("privileged",
                pluralize("container", "containers", containers.size()) + " " + joinQuote(containers)
                        + " must not set securityContext.privileged=true"));
    }

    private static Optional<Violation> procMount(JsonNode pod) {
        List<String> containers = new ArrayList<>();
        Set<String> types = new TreeSet<>();
        for (JsonNode container : containers(pod)) {
            JsonNode procMount = context(container).path("procMount");
            if (isSet(procMount) && !procMount.asText().equals("Default")) {
                containers.add(name(container));
                types.add(procMount.asText());
            }
        }
        return containers.isEmpty() ? Optional.empty() : Optional.of(new Violation("procMount",
                pluralize("container", "containers", containers.size()) + " " + joinQuote(containers)
                        + " must not set securityContext.procMount to " + joinQuote(types)));
    }

    private static Optional<Violation> seLinuxOptions(JsonNode pod) {
        Set<String> badTypes = new TreeSet<>();
        boolean[] userOrRole = new boolean[2];
        Function<JsonNode, Boolean> allowed = options -> {
            boolean valid = true;
            String type = options.path("type").asText("");
            if (!SELINUX_TYPES.contains(type)) {
                valid = false;
                badTypes.add(type);
            }
            if (!options.path("user").asText("").isEmpty()) {
                valid = false;
                userOrRole[0] = true;
            }
            if (!options.path("role").asText("").isEmpty()) {
                valid = false;
                userOrRole[1] = true;
            }
            return valid;
        };
        List<String> setters = new ArrayList<>();
        JsonNode podOptions = podContext(pod).path("seLinuxOptions");
        if (isSet(podOptions) && !allowed.apply(podOptions)) {
            setters.add("pod");
        }
        List<String> containers = new ArrayList<>();
        for (JsonNode container : containers(pod)) {
            JsonNode options = context(container).path("seLinuxOptions");
            if (isSet(options) && !allowed.apply(options)) {
                containers.add(name(container));
            }
        }
        if (!containers.isEmpty()) {
            setters.add(pluralize("container", "containers", containers.size()) + " " + joinQuote(containers));
        }
        if (setters.isEmpty()) {
            return Optional.empty();
        }
        List<String> what = new ArrayList<>();
        if (!badTypes.isEmpty()) {
            what.add(pluralize("type", "types", badTypes.size()) + " " + joinQuote(badTypes));
        }
        if (userOrRole[0]) {
            what.add("user may not be set");
        }
        if (userOrRole[1]) {
            what.add("role may not be set");
        }
        return Optional.of(new Violation("seLinuxOptions", String.join(" and ", setters)
                + " set forbidden securityContext.seLinuxOptions: " + String.join("; ", what)));
    }

    private static Optional<Violation> seccompProfileBaseline(JsonNode pod) {
        return seccompProfile(pod, false);
    }

    private static Optional<Violation> seccompProfileRestricted(JsonNode pod) {
        return isWindows(pod) ? Optional.empty() : seccompProfile(pod, true);
    }

    /** Baseline refuses a profile set to another type; restricted also one left unset by the pod and a container. */
    private static Optional<Violation> seccompProfile(JsonNode pod, boolean required) {
        List<String> setters = new ArrayList<>();
        Set<String> badValues = new TreeSet<>();
        boolean podSets = false;
        JsonNode podProfile = podContext(pod).path("seccompProfile");
        if (isSet(podProfile)) {
            String type = podProfile.path("type").asText("");
            if (PROFILE_TYPES.contains(type)) {
                podSets = true;
            } else {
                setters.add("pod");
                badValues.add(type);
            }
        }
        List<String> explicit = new ArrayList<>();
        List<String> implicit = new ArrayList<>();
        for (JsonNode container : containers(pod)) {
            JsonNode profile = context(container).path("seccompProfile");
            if (isSet(profile)) {
                String type = profile.path("type").asText("");
                if (!PROFILE_TYPES.contains(type)) {
                    explicit.add(name(container));
                    badValues.add(type);
                }
            } else if (!podSets) {
                implicit.add(name(container));
            }
        }
        if (!explicit.isEmpty()) {
            setters.add(pluralize("container", "containers", explicit.size()) + " " + joinQuote(explicit));
        }
        if (!setters.isEmpty()) {
            return Optional.of(new Violation("seccompProfile", String.join(" and ", setters)
                    + " must not set securityContext.seccompProfile.type to " + joinQuote(badValues)));
        }
        if (required && !implicit.isEmpty()) {
            return Optional.of(new Violation("seccompProfile", "pod or "
                    + pluralize("container", "containers", implicit.size()) + " " + joinQuote(implicit)
                    + " must set securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\""));
        }
        return Optional.empty();
    }

    private static Optional<Violation> sysctls(JsonNode pod) {
        List<String> forbidden = new ArrayList<>();
        podContext(pod).path("sysctls").forEach(sysctl -> {
            String name = sysctl.path("name").asText("");
            if (!SAFE_SYSCTLS.contains(name)) {
                forbidden.add(name);
            }
        });
        return forbidden.isEmpty() ? Optional.empty()
                : Optional.of(new Violation("forbidden sysctls", String.join(", ", forbidden)));
    }

    private static Optional<Violation> windowsHostProcess(JsonNode pod) {
        List<String> setters = new ArrayList<>();
        if (isTrue(podContext(pod).path("windowsOptions").path("hostProcess"))) {
            setters.add("pod");
        }
        List<String> containers = containers(pod).stream()
                .filter(c -> isTrue(context(c).path("windowsOptions").path("hostProcess"))).map(PodSecurity::name).toList();
        if (!containers.isEmpty()) {
            setters.add(pluralize("container", "containers", containers.size()) + " " + joinQuote(containers));
        }
        return setters.isEmpty() ? Optional.empty() : Optional.of(new Violation("hostProcess",
                String.join(" and ", setters) + " must not set securityContext.windowsOptions.hostProcess=true"));
    }

    private static Optional<Violation> allowPrivilegeEscalation(JsonNode pod) {
        if (isWindows(pod)) {
            return Optional.empty();
        }
        List<String> containers = containers(pod).stream()
                .filter(c -> !isFalse(context(c).path("allowPrivilegeEscalation"))).map(PodSecurity::name).toList();
        return containers.isEmpty() ? Optional.empty() : Optional.of(new Violation("allowPrivilegeEscalation != false",
                pluralize("container", "containers", containers.size()) + " " + joinQuote(containers)
                        + " must set securityContext.allowPrivilegeEscalation=false"));
    }

    private static Optional<Violation> capabilitiesRestricted(JsonNode pod) {
        if (isWindows(pod)) {
            return Optional.empty();
        }
        List<String> notDroppingAll = new ArrayList<>();
        List<String> adding = new ArrayList<>();
        Set<String> added = new TreeSet<>();
        for (JsonNode container : containers(pod)) {
            JsonNode capabilities = context(container).path("capabilities");
            if (!isSet(capabilities)) {
                notDroppingAll.add(name(container));
                continue;
            }
            boolean dropsAll = false;
            for (JsonNode dropped : capabilities.path("drop")) {
                dropsAll |= dropped.asText().equals("ALL");
            }
            if (!dropsAll) {
                notDroppingAll.add(name(container));
            }
            Set<String> forbidden = new TreeSet<>();
            capabilities.path("add").forEach(capability -> {
                if (!capability.asText().equals("NET_BIND_SERVICE")) {
                    forbidden.add(capability.asText());
                }
            });
            if (!forbidden.isEmpty()) {
                adding.add(name(container));
                added.addAll(forbidden);
            }
        }
        List<String> details = new ArrayList<>();
        if (!notDroppingAll.isEmpty()) {
            details.add(pluralize("container", "containers", notDroppingAll.size()) + " " + joinQuote(notDroppingAll)
                    + " must set securityContext.capabilities.drop=[\"ALL\"]");
        }
        if (!adding.isEmpty()) {
            details.add(pluralize("container", "containers", adding.size()) + " " + joinQuote(adding)
                    + " must not include " + joinQuote(added) + " in securityContext.capabilities.add");
        }
        return details.isEmpty() ? Optional.empty()
                : Optional.of(new Violation("unrestricted capabilities", String.join("; ", details)));
    }

    private static Optional<Violation> restrictedVolumes(JsonNode pod) {
        List<String> volumes = new ArrayList<>();
        Set<String> types = new TreeSet<>();
        for (JsonNode volume : pod.path("spec").path("volumes")) {
            List<String> sources = new ArrayList<>();
            volume.fieldNames().forEachRemaining(field -> {
                if (!field.equals("name") && isSet(volume.path(field))) {
                    sources.add(field);
                }
            });
            // A volume without a source is an emptyDir: kube-apiserver defaults it to one before admission.
            if (sources.isEmpty() || sources.stream().anyMatch(RESTRICTED_VOLUME_SOURCES::contains)) {
                continue;
            }
            volumes.add(volume.path("name").asText(""));
            types.add(NAMED_VOLUME_SOURCES.stream().filter(sources::contains).findFirst().orElse("unknown"));
        }
        return volumes.isEmpty() ? Optional.empty() : Optional.of(new Violation("restricted volume types",
                pluralize("volume", "volumes", volumes.size()) + " " + joinQuote(volumes) + " "
                        + pluralize("uses", "use", volumes.size()) + " "
                        + pluralize("restricted volume type", "restricted volume types", types.size()) + " "
                        + joinQuote(types)));
    }

    private static Optional<Violation> runAsNonRoot(JsonNode pod) {
        List<String> setters = new ArrayList<>();
        JsonNode podValue = podContext(pod).path("runAsNonRoot");
        if (isFalse(podValue)) {
            setters.add("pod");
        }
        List<String> explicit = new ArrayList<>();
        List<String> implicit = new ArrayList<>();
        for (JsonNode container : containers(pod)) {
            JsonNode value = context(container).path("runAsNonRoot");
            if (isFalse(value)) {
                explicit.add(name(container));
            } else if (!isSet(value) && !isTrue(podValue)) {
                implicit.add(name(container));
            }
        }
        if (!explicit.isEmpty()) {
            setters.add(pluralize("container", "containers", explicit.size()) + " " + joinQuote(explicit));
        }
        if (!setters.isEmpty()) {
            return Optional.of(new Violation("runAsNonRoot != true",
                    String.join(" and ", setters) + " must not set securityContext.runAsNonRoot=false"));
        }
        return implicit.isEmpty() ? Optional.empty() : Optional.of(new Violation("runAsNonRoot != true",
                "pod or " + pluralize("container", "containers", implicit.size()) + " " + joinQuote(implicit)
                        + " must set securityContext.runAsNonRoot=true"));
    }

    private static Optional<Violation> runAsUser(JsonNode pod) {
        List<String> setters = new ArrayList<>();
        if (isRoot(podContext(pod).path("runAsUser"))) {
            setters.add("pod");
        }
        List<String> containers = containers(pod).stream().filter(c -> isRoot(context(c).path("runAsUser")))
                .map(PodSecurity::name).toList();
        if (!containers.isEmpty()) {
            setters.add(pluralize("container", "containers", containers.size()) + " " + joinQuote(containers));
        }
        return setters.isEmpty() ? Optional.empty()
                : Optional.of(new Violation("runAsUser=0", String.join(" and ", setters) + " must not set runAsUser=0"));
    }

    /** Init containers, containers and ephemeral containers, in the order kube visits them. */
    private static List<JsonNode> containers(JsonNode pod) {
        JsonNode spec = pod.path("spec");
        List<JsonNode> all = new ArrayList<>();
        Stream.of("initContainers", "containers", "ephemeralContainers").forEach(list -> spec.path(list).forEach(all::add));
        return all;
    }

    private static JsonNode podContext(JsonNode pod) {
        return pod.path("spec").path("securityContext");
    }

    private static JsonNode context(JsonNode container) {
        return container.path("securityContext");
    }

    private static String name(JsonNode container) {
        return container.path("name").asText("");
    }

    /** Windows pods are spared the Linux-only restricted checks, as kube spares them since policy 1.25. */
    private static boolean isWindows(JsonNode pod) {
        return pod.path("spec").path("os").path("name").asText("").equals("windows");
    }

    private static boolean isSet(JsonNode node) {
        return !node.isMissingNode() && !node.isNull();
    }

    private static boolean isTrue(JsonNode node) {
        return node.isBoolean() && node.booleanValue();
    }

    private static boolean isFalse(JsonNode node) {
        return node.isBoolean() && !node.booleanValue();
    }

    private static boolean isRoot(JsonNode node) {
        return node.isIntegralNumber() && node.longValue() == 0;
    }

    private static String pluralize(String singular, String plural, int count) {
        return count == 1 ? singular : plural;
    }

    private static String joinQuote(Collection<String> items) {
        return items.isEmpty() ? "" : items.stream().collect(Collectors.joining("\", \"", "\"", "\""));
    }

    private static String goQuote(String value) {
        return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
