package dev.muster.local.admission;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.muster.local.protocol.FieldError;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link PodValidation} on its own, a pod spec per row (YAML flow style) and the errors kube-apiserver gives for it,
 * separated by {@code ;}, in its order; an empty expectation is a valid pod.
 */
class PodValidationTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String LABEL_RULE = "a lowercase RFC 1123 label must consist of lower case alphanumeric "
            + "characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', "
            + "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            valid pod               | {restartPolicy: Never, containers: [{name: main, image: busybox, ports: [{containerPort: 80, protocol: TCP, name: http}], resources: {requests: {cpu: 500m, memory: 1Gi}, limits: {cpu: 1, memory: 1Gi}}}]} |
            no containers           | {restartPolicy: Never, containers: []} | spec.containers: Required value
            no containers at all    | {restartPolicy: Never} | spec.containers: Required value
            no image                | {restartPolicy: Never, containers: [{name: main}]} | spec.containers[0].image: Required value
            image with whitespace   | {restartPolicy: Never, containers: [{name: main, image: 'busybox '}]} | spec.containers[0].image: Invalid value: "busybox ": must not have leading or trailing whitespace
            no name                 | {restartPolicy: Never, containers: [{image: busybox}]} | spec.containers[0].name: Required value
            name not a label        | {restartPolicy: Never, containers: [{name: Main_1, image: busybox}]} | spec.containers[0].name: Invalid value: "Main_1": LABEL
            name with dots          | {restartPolicy: Never, containers: [{name: a.b, image: busybox}]} | spec.containers[0].name: Invalid value: "a.b": must not contain dots
            duplicate names         | {restartPolicy: Never, containers: [{name: main, image: a}, {name: main, image: b}]} | spec.containers[1].name: Duplicate value: "main"
            init named as container | {restartPolicy: Never, containers: [{name: main, image: a}], initContainers: [{name: main, image: b}]} | spec.initContainers[0].name: Duplicate value: "main"
            init without image      | {restartPolicy: Never, containers: [{name: main, image: a}], initContainers: [{name: setup}]} | spec.initContainers[0].image: Required value
            restart policy          | {restartPolicy: Sometimes, containers: [{name: main, image: a}]} | spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"
            pull policy             | {restartPolicy: Never, containers: [{name: main, image: a, imagePullPolicy: Maybe}]} | spec.containers[0].imagePullPolicy: Unsupported value: "Maybe": supported values: "Always", "IfNotPresent", "Never"
            request above limit     | {restartPolicy: Never, containers: [{name: main, image: a, resources: {requests: {cpu: '2'}, limits: {cpu: '1'}}}]} | spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1
            quantities canonical    | {restartPolicy: Never, containers: [{name: main, image: a, resources: {requests: {memory: 2048Mi}, limits: {memory: 1.5Gi}}}]} | spec.containers[0].resources.requests: Invalid value: "2Gi": must be less than or equal to memory limit of 1536Mi
            negative quantity       | {restartPolicy: Never, containers: [{name: main, image: a, resources: {requests: {cpu: '-0.5'}}}]} | spec.containers[0].resources.requests[cpu]: Invalid value: "-500m": must be greater than or equal to 0
            extended unequal        | {restartPolicy: Never, containers: [{name: main, image: a, resources: {requests: {nvidia.com/gpu: 1}, limits: {nvidia.com/gpu: 2}}}]} | spec.containers[0].resources.requests: Invalid value: "1": must be equal to nvidia.com/gpu limit of 2
            extended without limit  | {restartPolicy: Never, containers: [{name: main, image: a, resources: {requests: {nvidia.com/gpu: 1}}}]} | spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources
            port out of range       | {restartPolicy: Never, containers: [{name: main, image: a, ports: [{containerPort: 70000}]}]} | spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive
            port missing            | {restartPolicy: Never, containers: [{name: main, image: a, ports: [{name: http}]}]} | spec.containers[0].ports[0].containerPort: Required value
            port protocol           | {restartPolicy: Never, containers: [{name: main, image: a, ports: [{containerPort: 80, protocol: HTTP}]}]} | spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"
            port name               | {restartPolicy: Never, containers: [{name: main, image: a, ports: [{containerPort: 80, name: '8080'}]}]} | spec.containers[0].ports[0].name: Invalid value: "8080": must contain at least one letter (a-z)
            mount of no volume      | {restartPolicy: Never, containers: [{name: main, image: a, volumeMounts: [{name: data, mountPath: /data}]}]} | spec.containers[0].volumeMounts[0].name: Not found: "data"
            mount of a volume       | {restartPolicy: Never, volumes: [{name: data, emptyDir: {}}], containers: [{name: main, image: a, volumeMounts: [{name: data, mountPath: /data}]}]} |
            mount path twice        | {restartPolicy: Never, volumes: [{name: data}], containers: [{name: main, image: a, volumeMounts: [{name: data, mountPath: /d}, {name: data, mountPath: /d}]}]} | spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/d": must be unique
            volume names            | {restartPolicy: Never, volumes: [{name: Data}, {name: x}, {name: x}], containers: [{name: main, image: a}]} | spec.volumes[0].name: Invalid value: "Data": LABEL; spec.volumes[2].name: Duplicate value: "x"
            several, in order       | {restartPolicy: Bad, containers: [{name: main}, {name: main, image: a}]} | spec.containers[0].image: Required value; spec.containers[1].name: Duplicate value: "main"; spec.restartPolicy: Unsupported value: "Bad": supported values: "Always", "OnFailure", "Never"
            """)
    void podsAreRefusedInTheApiServersWords(String description, String spec, String expected) {
        List<String> errors = PodValidation.validate(pod(spec)).stream().map(FieldError::toString).toList();

        List<String> wanted = expected == null ? List.of()
                : Arrays.stream(expected.split(";")).map(String::strip).map(e -> e.replace("LABEL", LABEL_RULE)).toList();
        assertThat(errors).as(description).isEqualTo(wanted);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            '1'     | 1
            1.5     | 1500m
            2000m   | 2
            0.1     | 100m
            1024Mi  | 1Gi
            1536Mi  | 1536Mi
            1000Ki  | 1000Ki
            512     | 512
            1e3     | 1e3
            1000    | 1k
            12e6    | 12e6
            0       | 0
            100k    | 100k
            -1      | -1
            """)
    void quantitiesArePrintedInKubernetesCanonicalForm(String written, String canonical) {
        assertThat(Quantity.parse(written)).hasToString(canonical);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            2 cores | quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'
            1KB     | quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'
            1iK     | unable to parse quantity's suffix
            """)
    void aQuantityThatDoesNotReadIsRefusedWhileDecoding(String written, String problem) {
        JsonNode pod = pod("{containers: [{name: main, image: a, resources: {limits: {cpu: '" + written + "'}}}]}");

        assertThat(PodValidation.undecodable(pod)).hasValue("Pod in version \"v1\" cannot be handled as a Pod: " + problem);
        assertThat(PodValidation.undecodable(pod("{containers: [{name: main, resources: {limits: {cpu: 2}}}]}"))).isEmpty();
    }

    private static JsonNode pod(String spec) {
        try {
            return YAML.readTree("{metadata: {name: p}, spec: " + spec + "}");
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
