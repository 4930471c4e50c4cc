package dev.muster.local.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The warnings kube-apiserver sends with a pod it creates, in its words. */
class PodWarningsTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static JsonNode pod(String yaml) {
        try {
            return YAML.readTree(yaml);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Test
    void deprecatedNodeLabelsAreNamedWhereverThePodSelectsNodesByThem() {
        JsonNode pod = pod("""
                metadata: {name: p}
                spec:
                  nodeSelector: {beta.kubernetes.io/arch: amd64, kubernetes.io/os: linux}
                  affinity:
                    nodeAffinity:
                      requiredDuringSchedulingIgnoredDuringExecution:
                        nodeSelectorTerms:
                        - matchExpressions:
                          - {key: kubernetes.io/hostname, operator: Exists}
                          - {key: failure-domain.beta.kubernetes.io/zone, operator: In, values: [a]}
                  topologySpreadConstraints:
                  - {topologyKey: node-role.kubernetes.io/master, maxSkew: 1, whenUnsatisfiable: DoNotSchedule}
                  containers: [{name: main, image: busybox}]
                """);

        assertThat(PodWarnings.of(pod)).containsExactly(
                "spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use \"kubernetes.io/arch\" instead",
                "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]"
                        + ".matchExpressions[1].key: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; "
                        + "use \"topology.kubernetes.io/zone\" instead",
                "spec.topologySpreadConstraints[0].topologyKey: node-role.kubernetes.io/master is use "
                        + "\"node-role.kubernetes.io/control-plane\" instead");
    }

    @Test
    void anEnvironmentVariableDefinedAgainHidesTheFirstUnlessItBuildsOnIt() {
        JsonNode pod = pod("""
                metadata: {name: p}
                spec:
                  initContainers:
                  - name: init
                    image: busybox
                    env: [{name: PATH, value: /bin}, {name: PATH, value: "$(PATH):/opt/bin"}]
                  containers:
                  - name: main
                    image: busybox
                    env:
                    - {name: MASTER_ADDR, value: a}
                    - {name: MASTER_ADDR, value: b}
                    - {name: RANK, value: "0"}
                    - {name: RANK, valueFrom: {fieldRef: {fieldPath: "metadata.labels['rank']"}}}
                """);

        assertThat(PodWarnings.of(pod)).containsExactly(
                "spec.containers[0].env[1]: hides previous definition of \"MASTER_ADDR\", which may be dropped when using apply",
                "spec.containers[0].env[3]: hides previous definition of \"RANK\", which may be dropped when using apply");
    }

    @Test
    void annotationsThatNoLongerDoAnythingAreSaid() {
        JsonNode pod = pod("""
                metadata: {name: p, annotations: {scheduler.alpha.kubernetes.io/critical-pod: "", app: x}}
                spec: {containers: [{name: main, image: busybox}]}
                """);

        assertThat(PodWarnings.of(pod)).containsExactly("metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: "
                + "non-functional in v1.16+; use the \"priorityClassName\" field instead");
        assertThat(PodWarnings.of(pod("""
                metadata: {name: q}
                spec: {containers: [{name: m, image: b}]}
                """))).isEmpty();
    }
}
