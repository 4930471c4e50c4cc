package dev.muster.local.admission;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link ModelFields} on its own: a pod per row (YAML flow style) and the unknown fields found in it, by path. */
class ModelFieldsTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            known fields only    | {apiVersion: v1, kind: Pod, metadata: {name: p, labels: {any: thing}, annotations: {a/b: c}}, spec: {nodeSelector: {disk: ssd}, containers: [{name: m, image: i, resources: {requests: {cpu: 1, example.com/any: 2}}, ports: [{containerPort: 80}]}]}} |
            misspelt in a list   | {spec: {containers: [{name: m}, {name: n, resorces: {}}]}} | spec.containers[1].resorces
            at the top and deep  | {colour: blue, spec: {securityContext: {runAsUsr: 1}}, status: {phse: Running}} | colour; spec.securityContext.runAsUsr; status.phse
            managed fields       | {metadata: {managedFields: [{manager: kubectl, fieldsV1: {f:spec: {f:containers: {}}}}]}} |
            int or string        | {spec: {containers: [{name: m, livenessProbe: {httpGet: {port: http, hostt: x}}}]}} | spec.containers[0].livenessProbe.httpGet.hostt
            newer: scheduling group  | {spec: {schedulingGroup: {podGroupName: g}}} |
            misspelt in the group    | {spec: {schedulingGroup: {podGroupNam: g}}} | spec.schedulingGroup.podGroupNam
            other newer pod field    | {spec: {workloadRef: {name: w}}} | spec.workloadRef
            """)
    void unknownFieldsAreFoundAgainstFabric8sModelAndDropped(String description, String pod, String expected) throws JsonProcessingException {
        ObjectNode object = (ObjectNode) YAML.readTree(pod);

        List<String> unknown = ModelFields.prune(object, Pod.class);

        List<String> wanted = expected == null ? List.of() : Arrays.stream(expected.split(";")).map(String::strip).toList();
        assertThat(unknown).as(description).isEqualTo(wanted);
        assertThat(ModelFields.prune(object, Pod.class)).as("dropped").isEmpty();
    }
}
