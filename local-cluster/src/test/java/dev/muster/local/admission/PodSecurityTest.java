package dev.muster.local.admission;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.muster.local.admission.PodSecurity.Level;
import dev.muster.local.admission.PodSecurity.Policy;
import dev.muster.local.admission.PodSecurity.Violation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** PodSecurity's checks, each in kube's words, and their joined message in kube's order. */
class PodSecurityTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String HARDENED = "{allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}, "
            + "runAsNonRoot: true, seccompProfile: {type: RuntimeDefault}}";
    private static final String PLAIN_POD = """
            metadata: {name: p}
            spec:
              containers: [{name: main, image: busybox}]
            """;

    private static JsonNode pod(String yaml) {
        try {
            return YAML.readTree(yaml);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static String message(Level level, String yaml) {
        return PodSecurity.violations(level, pod(yaml)).stream().map(Violation::toString).collect(Collectors.joining(", "));
    }

    static Stream<Arguments> baseline() {
        return Stream.of(
                arguments("privileged init and main containers", """
                        spec:
                          initContainers: [{name: setup, image: busybox, securityContext: {privileged: true}}]
                          containers: [{name: main, image: busybox, securityContext: {privileged: true}}]
                        """, "privileged (containers \"setup\", \"main\" must not set securityContext.privileged=true)"),
                arguments("an ephemeral container counts", """
                        spec:
                          containers: [{name: main, image: busybox, securityContext: {privileged: false}}]
                          ephemeralContainers: [{name: debugger, image: busybox, securityContext: {privileged: true}}]
                        """, "privileged (container \"debugger\" must not set securityContext.privileged=true)"),
                arguments("host namespaces", """
                        spec:
                          hostNetwork: true
                          hostPID: false
                          hostIPC: true
                          containers: [{name: main, image: busybox}]
                        """, "host namespaces (hostNetwork=true, hostIPC=true)"),
                arguments("hostPath volumes", """
                        spec:
                          volumes: [{name: data, hostPath: {path: /data}}, {name: cache, emptyDir: {}}]
                          containers: [{name: main, image: busybox}]
                        """, "hostPath volumes (volume \"data\")"),
                arguments("host ports, sorted as strings", """
                        spec:
                          containers:
                          - name: main
                            image: busybox
                            ports: [{containerPort: 80, hostPort: 80}, {containerPort: 81, hostPort: 10000}]
                          - {name: side, image: busybox, ports: [{containerPort: 9090}]}
                        """, "hostPort (container \"main\" uses hostPorts 10000, 80)"),
                arguments("capabilities beyond the default set", """
                        spec:
                          containers:
                          - {name: main, image: busybox, securityContext: {capabilities: {add: [SYS_ADMIN, CHOWN, NET_ADMIN]}}}
                          - {name: side, image: busybox, securityContext: {capabilities: {add: [NET_ADMIN]}}}
                          - {name: ok, image: busybox, securityContext: {capabilities: {add: [KILL]}}}
                        """, "non-default capabilities (containers \"main\", \"side\" must not include \"NET_ADMIN\", "
                        + "\"SYS_ADMIN\" in securityContext.capabilities.add)"),
                arguments("procMount", """
                        spec:
                          containers:
                          - {name: main, image: busybox, securityContext: {procMount: Unmasked}}
                          - {name: side, image: busybox, securityContext: {procMount: Default}}
                        """, "procMount (container \"main\" must not set securityContext.procMount to \"Unmasked\")"),
                arguments("seLinuxOptions", """
                        spec:
                          securityContext: {seLinuxOptions: {type: spc_t}}
                          containers:
                          - {name: main, image: busybox, securityContext: {seLinuxOptions: {user: root, role: sysadm_r}}}
                          - {name: side, image: busybox, securityContext: {seLinuxOptions: {type: container_t, level: "s0:c1"}}}
                        """, "seLinuxOptions (pod and container \"main\" set forbidden securityContext.seLinuxOptions: "
                        + "type \"spc_t\"; user may not be set; role may not be set)"),
                arguments("AppArmor profiles, fields and annotations", """
                        metadata:
                          annotations:
                            container.apparmor.security.beta.kubernetes.io/main: unconfined
                            container.apparmor.security.beta.kubernetes.io/side: localhost/mine
                        spec:
                          containers:
                          - {name: main, image: busybox, securityContext: {appArmorProfile: {type: Unconfined}}}
                          - {name: side, image: busybox, securityContext: {appArmorProfile: {type: RuntimeDefault}}}
                        """, "forbidden AppArmor profiles (container \"main\" and annotation must not set AppArmor profile "
                        + "type to \"Unconfined\", \"container.apparmor.security.beta.kubernetes.io/main=\"unconfined\"\")"),
                arguments("a seccomp profile set to Unconfined; none set is baseline's default", """
                        spec:
                          securityContext: {seccompProfile: {type: Unconfined}}
                          containers: [{name: main, image: busybox}]
                        """, "seccompProfile (pod must not set securityContext.seccompProfile.type to \"Unconfined\")"),
                arguments("unsafe sysctls, in their order", """
                        spec:
                          securityContext:
                            sysctls: [{name: net.core.somaxconn, value: "1024"}, {name: kernel.shm_rmid_forced, value: "1"},
                                      {name: kernel.msgmax, value: "1"}]
                          containers: [{name: main, image: busybox}]
                        """, "forbidden sysctls (net.core.somaxconn, kernel.msgmax)"),
                arguments("Windows hostProcess", """
                        spec:
                          securityContext: {windowsOptions: {hostProcess: true}}
                          containers: [{name: main, image: busybox, securityContext: {windowsOptions: {hostProcess: true}}}]
                        """, "hostProcess (pod and container \"main\" must not set securityContext.windowsOptions.hostProcess=true)"),
                arguments("probe and lifecycle hosts, containers and hosts sorted", """
                        spec:
                          containers:
                          - name: side
                            image: busybox
                            readinessProbe: {tcpSocket: {host: example.com, port: 80}}
                          - name: main
                            image: busybox
                            livenessProbe: {httpGet: {host: 10.0.0.1, port: 80}}
                            lifecycle: {preStop: {httpGet: {host: 10.0.0.1, port: 80}}}
                        """, "probe or lifecycle host (containers \"main\", \"side\" use probe or lifecycle hosts "
                        + "\"10.0.0.1\", \"example.com\")"),
                arguments("several checks, in kube's order", """
                        spec:
                          hostNetwork: true
                          volumes: [{name: data, hostPath: {path: /data}}]
                          containers:
                          - {name: main, image: busybox, securityContext: {privileged: true, capabilities: {add: [SYS_ADMIN]}}}
                        """, "non-default capabilities (container \"main\" must not include \"SYS_ADMIN\" in "
                        + "securityContext.capabilities.add), host namespaces (hostNetwork=true), hostPath volumes "
                        + "(volume \"data\"), privileged (container \"main\" must not set securityContext.privileged=true)"),
                arguments("a plain pod meets baseline", PLAIN_POD, ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void baseline(String title, String pod, String expected) {
        assertThat(message(Level.BASELINE, pod)).isEqualTo(expected);
    }

    static Stream<Arguments> restricted() {
        return Stream.of(
                arguments("a plain pod", PLAIN_POD, "allowPrivilegeEscalation != false (container \"main\" must set "
                        + "securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container \"main\" "
                        + "must set securityContext.capabilities.drop=[\"ALL\"]), runAsNonRoot != true (pod or container "
                        + "\"main\" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container \"main\" "
                        + "must set securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\")"),
                arguments("a hardened pod", "spec: {containers: [{name: main, image: busybox, securityContext: "
                        + HARDENED + "}]}", ""),
                arguments("runAsNonRoot and seccomp set once for the pod", """
                        spec:
                          securityContext: {runAsNonRoot: true, seccompProfile: {type: Localhost, localhostProfile: p.json}}
                          containers:
                          - {name: main, image: busybox, securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}}
                        """, ""),
                arguments("an init container counts", "spec: {initContainers: [{name: setup, image: busybox}], "
                        + "containers: [{name: main, image: busybox, securityContext: " + HARDENED + "}]}",
                        "allowPrivilegeEscalation != false (container \"setup\" must set "
                        + "securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container \"setup\" "
                        + "must set securityContext.capabilities.drop=[\"ALL\"]), runAsNonRoot != true (pod or container "
                        + "\"setup\" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container \"setup\" "
                        + "must set securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\")"),
                arguments("capabilities: drop ALL, add NET_BIND_SERVICE only, and no baseline entry", """
                        spec:
                          securityContext: {runAsNonRoot: true, seccompProfile: {type: RuntimeDefault}}
                          containers:
                          - name: main
                            image: busybox
                            securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL], add: [NET_BIND_SERVICE, SYS_TIME]}}
                          - name: side
                            image: busybox
                            securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [NET_RAW], add: [NET_ADMIN]}}
                        """, "unrestricted capabilities (container \"side\" must set securityContext.capabilities.drop="
                        + "[\"ALL\"]; containers \"main\", \"side\" must not include \"NET_ADMIN\", \"SYS_TIME\" in "
                        + "securityContext.capabilities.add)"),
                arguments("runAsNonRoot=false set explicitly", """
                        spec:
                          securityContext: {runAsNonRoot: false, seccompProfile: {type: RuntimeDefault}}
                          containers:
                          - {name: main, image: busybox, securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}, runAsNonRoot: false}}
                          - {name: side, image: busybox, securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}}
                        """, "runAsNonRoot != true (pod and container \"main\" must not set securityContext.runAsNonRoot=false)"),
                arguments("runAsUser=0", """
                        spec:
                          securityContext: {runAsUser: 0, runAsNonRoot: true, seccompProfile: {type: RuntimeDefault}}
                          containers:
                          - {name: main, image: busybox, securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}, runAsUser: 0}}
                          - {name: side, image: busybox, securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}, runAsUser: 1000}}
                        """, "runAsUser=0 (pod and container \"main\" must not set runAsUser=0)"),
                arguments("volume types, hostPath named here and not by baseline", """
                        spec:
                          volumes:
                          - {name: data, hostPath: {path: /data}}
                          - {name: repo, gitRepo: {repository: "https://example.com/r.git"}}
                          - {name: config, configMap: {name: c}}
                          - {name: claim, persistentVolumeClaim: {claimName: c}}
                          - {name: scratch}
                        """ + "  containers: [{name: main, image: busybox, securityContext: " + HARDENED + "}]\n",
                        "restricted volume types (volumes \"data\", \"repo\" use restricted volume types \"gitRepo\", \"hostPath\")"),
                arguments("a seccomp profile set to Unconfined is named before one missing", """
                        spec:
                          securityContext: {runAsNonRoot: true}
                          containers:
                          - {name: main, image: busybox, securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}, seccompProfile: {type: Unconfined}}}
                          - {name: side, image: busybox, securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}}
                        """, "seccompProfile (container \"main\" must not set securityContext.seccompProfile.type to \"Unconfined\")"),
                arguments("Windows pods are spared the Linux-only checks", """
                        spec:
                          os: {name: windows}
                          securityContext: {runAsNonRoot: true}
                          containers: [{name: main, image: busybox}]
                        """, ""),
                arguments("baseline's checks come first", """
                        spec:
                          hostPID: true
                          containers:
                          - {name: main, image: busybox, ports: [{containerPort: 80, hostPort: 80}], securityContext: {privileged: true, allowPrivilegeEscalation: true, capabilities: {drop: [ALL]}, runAsNonRoot: true, seccompProfile: {type: RuntimeDefault}}}
                        """, "host namespaces (hostPID=true), hostPort (container \"main\" uses hostPort 80), privileged "
                        + "(container \"main\" must not set securityContext.privileged=true), allowPrivilegeEscalation != false "
                        + "(container \"main\" must set securityContext.allowPrivilegeEscalation=false)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void restricted(String title, String pod, String expected) {
        assertThat(message(Level.RESTRICTED, pod)).isEqualTo(expected);
    }

    @Test
    void privilegedAllowsAnything() {
        assertThat(PodSecurity.violations(Level.PRIVILEGED, pod("""
                spec:
                  hostNetwork: true
                  containers: [{name: main, image: busybox, securityContext: {privileged: true}}]
                """))).isEmpty();
    }

    static Stream<Arguments> policies() {
        String prefix = "pod-security.kubernetes.io/";
        return Stream.of(
                arguments(Map.of(), "privileged:latest", "privileged:latest"),
                arguments(Map.of(prefix + "enforce", "restricted"), "restricted:latest", "restricted:latest"),
                arguments(Map.of(prefix + "enforce", "baseline", prefix + "enforce-version", "v1.30"),
                        "baseline:v1.30", "baseline:v1.30"),
                arguments(Map.of(prefix + "enforce", "restricted", prefix + "warn", "baseline"),
                        "restricted:latest", "baseline:latest"),
                arguments(Map.of(prefix + "enforce", "baseline", prefix + "warn-version", "v1.29"),
                        "baseline:latest", "baseline:v1.29"),
                arguments(Map.of(prefix + "warn", "baseline"), "privileged:latest", "baseline:latest"),
                arguments(Map.of(prefix + "enforce", "strict", prefix + "enforce-version", "1.30"),
                        "restricted:latest", "privileged:latest"),
                arguments(Map.of(prefix + "warn", "strict"), "privileged:latest", "privileged:latest"));
    }

    @ParameterizedTest
    @MethodSource
    void policies(Map<String, String> labels, String enforce, String warn) {
        Policy policy = Policy.of(labels);

        assertThat(policy.enforce()).hasToString(enforce);
        assertThat(policy.warn()).hasToString(warn);
    }

    @Test
    void theEnforcedLevelRefusesInKubesWords() {
        PodSecurity.Decision decision = PodSecurity.admit(Map.of("pod-security.kubernetes.io/enforce", "baseline",
                "pod-security.kubernetes.io/enforce-version", "v1.28"), pod("""
                spec:
                  containers: [{name: main, image: busybox, securityContext: {privileged: true}}]
                """));

        assertThat(decision.refusal()).contains("violates PodSecurity \"baseline:v1.28\": privileged (container \"main\" "
                + "must not set securityContext.privileged=true)");
        assertThat(decision.warnings()).isEmpty();
    }

    @Test
    void theWarnLevelWarnsAboutAPodTheEnforcedLevelAdmits() {
        PodSecurity.Decision decision = PodSecurity.admit(Map.of("pod-security.kubernetes.io/enforce", "baseline",
                "pod-security.kubernetes.io/warn", "restricted"), pod("""
                spec:
                  securityContext: {runAsNonRoot: true, seccompProfile: {type: RuntimeDefault}}
                  containers: [{name: main, image: busybox, securityContext: {capabilities: {drop: [ALL]}}}]
                """));

        assertThat(decision.refusal()).isEmpty();
        assertThat(decision.warnings()).containsExactly("would violate PodSecurity \"restricted:latest\": "
                + "allowPrivilegeEscalation != false (container \"main\" must set securityContext.allowPrivilegeEscalation=false)");
    }

    @Test
    void aNamespaceWithoutLabelsAdmitsAnyPodSilently() {
        PodSecurity.Decision decision = PodSecurity.admit(Map.of("team", "a"), pod("""
                spec:
                  hostPID: true
                  containers: [{name: main, image: busybox, securityContext: {privileged: true}}]
                """));

        assertThat(decision.refusal()).isEmpty();
        assertThat(decision.warnings()).isEmpty();
    }
}
