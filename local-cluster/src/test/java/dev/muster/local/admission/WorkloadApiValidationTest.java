package dev.muster.local.admission;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.muster.local.protocol.FieldError;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link WorkloadApiValidation} on its own: per row, the kind, the object (YAML flow style), the stored object of an
 * update (empty for a create) and the errors kube-apiserver 1.36 reports, as it prints them.
 */
class WorkloadApiValidationTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            PodGroup | {spec: {schedulingPolicy: {gang: {minCount: 3}}}} | |
            PodGroup | {spec: {schedulingPolicy: {basic: {}}, schedulingConstraints: {topology: [{key: rack}]}}} | |
            PodGroup | {spec: {}} | | spec.schedulingPolicy: Invalid value: "": must specify one of: `basic`, `gang`
            PodGroup | {spec: {schedulingPolicy: {basic: {}, gang: {minCount: 1}}}} | | spec.schedulingPolicy: Invalid value: "{`basic`, `gang`}": must specify exactly one of: `basic`, `gang`
            PodGroup | {spec: {schedulingPolicy: {gang: {}}}} | | spec.schedulingPolicy.gang.minCount: Required value
            PodGroup | {spec: {schedulingPolicy: {gang: {minCount: 0}}}} | | spec.schedulingPolicy.gang.minCount: Required value
            PodGroup | {spec: {schedulingPolicy: {gang: {minCount: -2}}}} | | spec.schedulingPolicy.gang.minCount: Invalid value: -2: must be greater than or equal to 1
            PodGroup | {spec: {schedulingPolicy: {basic: {}}, schedulingConstraints: {topology: [{key: a}, {}]}}} | | spec.schedulingConstraints.topology: Too many: 2: must have at most 1 items; spec.schedulingConstraints.topology[1].key: Required value
            PodGroup | {spec: {schedulingPolicy: {gang: {minCount: 3}}}, status: {conditions: []}} | {spec: {schedulingPolicy: {gang: {minCount: 3}}}} |
            PodGroup | {spec: {schedulingPolicy: {gang: {minCount: 4}}}} | {spec: {schedulingPolicy: {gang: {minCount: 3}}}} | spec.schedulingPolicy: Forbidden: field is immutable
            PodGroup | {spec: {schedulingPolicy: {basic: {}}}} | {spec: {schedulingPolicy: {basic: {}}, podGroupTemplateRef: {workload: {workloadName: w, podGroupTemplateName: t}}}} | spec.podGroupTemplateRef: Forbidden: field is immutable
            PodGroup | {spec: {schedulingPolicy: {basic: {}}, schedulingConstraints: null}} | {spec: {schedulingPolicy: {basic: {}}}} |
            Workload | {spec: {podGroupTemplates: [{name: workers, schedulingPolicy: {gang: {minCount: 2}}}, {name: driver, schedulingPolicy: {basic: {}}}]}} | |
            Workload | {spec: {}} | | spec.podGroupTemplates: Required value
            Workload | {spec: {podGroupTemplates: []}} | | spec.podGroupTemplates: Required value
            Workload | {spec: {podGroupTemplates: [{name: a, schedulingPolicy: {basic: {}}}, {name: a, schedulingPolicy: {basic: {}}}]}} | | spec.podGroupTemplates[1].name: Duplicate value: "a"
            Workload | {spec: {podGroupTemplates: [{schedulingPolicy: {basic: {}}}, {name: B, schedulingPolicy: {}}]}} | | spec.podGroupTemplates[0].name: Required value; spec.podGroupTemplates[1].name: Invalid value: "B": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'); spec.podGroupTemplates[1].schedulingPolicy: Invalid value: "": must specify one of: `basic`, `gang`
            Workload | {spec: {podGroupTemplates: [{name: a, schedulingPolicy: {basic: {}}}, {name: b, schedulingPolicy: {basic: {}}}, {name: c, schedulingPolicy: {basic: {}}}, {name: d, schedulingPolicy: {basic: {}}}, {name: e, schedulingPolicy: {basic: {}}}, {name: f, schedulingPolicy: {basic: {}}}, {name: g, schedulingPolicy: {basic: {}}}, {name: h, schedulingPolicy: {basic: {}}}, {name: i, schedulingPolicy: {basic: {}}}]}} | | spec.podGroupTemplates: Too many: 9: must have at most 8 items
            Workload | {spec: {podGroupTemplates: [{name: a, schedulingPolicy: {basic: {}}}], controllerRef: {kind: Job, name: j}}} | {spec: {podGroupTemplates: [{name: a, schedulingPolicy: {basic: {}}}]}} | spec.controllerRef: Forbidden: field is immutable
            Pod      | {spec: {containers: []}} | |
            Pod      | {spec: {schedulingGroup: {podGroupName: trainer.workers-0}}} | |
            Pod      | {spec: {schedulingGroup: {}}} | | spec.schedulingGroup.podGroupName: Required value
            Pod      | {spec: {schedulingGroup: {podGroupName: Trainer}}} | | spec.schedulingGroup.podGroupName: Invalid value: "Trainer": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
            Pod      | {spec: {schedulingGroup: {podGroupName: g}}} | {spec: {schedulingGroup: {podGroupName: g}}} |
            Pod      | {spec: {schedulingGroup: {podGroupName: h}}} | {spec: {schedulingGroup: {podGroupName: g}}} | spec.schedulingGroup: Forbidden: field is immutable
            Pod      | {spec: {schedulingGroup: {podGroupName: h}}} | {spec: {}} | spec.schedulingGroup: Forbidden: field is immutable
            """)
    void refusesAsKubeApiserverDoes(String kind, String object, String old, String expected) throws JsonProcessingException {
        JsonNode stored = old == null ? null : YAML.readTree(old);
        JsonNode written = YAML.readTree(object);

        List<FieldError> errors = switch (kind) {
            case "PodGroup" -> WorkloadApiValidation.podGroup(written, stored);
            case "Workload" -> WorkloadApiValidation.workload(written, stored);
            default -> WorkloadApiValidation.podSchedulingGroup(written, stored);
        };

        List<String> wanted = expected == null ? List.of() : Arrays.stream(expected.split("; ")).map(String::strip).toList();
        assertThat(errors).map(FieldError::toString).isEqualTo(wanted);
    }
}
