package dev.muster.cli.convert;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.muster.rendering.plugin.PodPlugins;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What {@link VolcanoConverter} makes of Volcano's manifests, and that it says every change and every loss. */
class VolcanoConverterTest {
    private static final YAMLMapper YAML = new YAMLMapper();
    private static final VolcanoConverter CONVERTER = new VolcanoConverter(PodPlugins.BUILT_IN.names());

    private static List<Conversion> convert(String... documents) throws Exception {
        List<VolcanoConverter.Source> sources = new ArrayList<>();
        for (int i = 0; i < documents.length; i++) {
            sources.add(new VolcanoConverter.Source("in.yaml", i + 1, (ObjectNode) YAML.readTree(documents[i])));
        }
        return CONVERTER.convert(sources);
    }

    @Test
    void aVcjobBecomesAMusterJobWithVolcanosSchedulerNamesRemovedAndItsTaskSelectorsOnMusterLabels() throws Exception {
        Conversion job = convert("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: tf, namespace: ml, uid: 1234, resourceVersion: "9"}
                spec:
                  schedulerName: volcano
                  minAvailable: 2
                  tasks:
                    - name: worker
                      replicas: 2
                      template:
                        spec:
                          schedulerName: volcano
                          affinity:
                            podAntiAffinity:
                              requiredDuringSchedulingIgnoredDuringExecution:
                                - topologyKey: kubernetes.io/hostname
                                  labelSelector:
                                    matchLabels: {volcano.sh/job-name: tf}
                                    matchExpressions: [{key: volcano.sh/task-spec, operator: In, values: [worker]}]
                          containers:
                            - name: main
                              image: busybox
                              env:
                                - name: TASK
                                  valueFrom: {fieldRef: {fieldPath: "metadata.labels['volcano.sh/task-spec']"}}
                                - name: RANK
                                  valueFrom: {fieldRef: {fieldPath: "metadata.annotations['volcano.sh/task-index']"}}
                status: {state: {phase: Running}}
                """).get(0);

        JsonNode out = job.result();
        assertThat(out.path("apiVersion").asText()).isEqualTo("batch.muster.dev/v1alpha1");
        assertThat(out.path("spec").has("schedulerName")).isFalse();
        JsonNode pod = out.path("spec").path("tasks").path(0).path("template").path("spec");
        assertThat(pod.has("schedulerName")).isFalse();
        JsonNode selector = pod.path("affinity").path("podAntiAffinity").path("requiredDuringSchedulingIgnoredDuringExecution")
                .path(0).path("labelSelector");
        assertThat(selector.path("matchLabels").path("batch.muster.dev/job-name").asText()).isEqualTo("tf");
        assertThat(selector.path("matchLabels").has("volcano.sh/job-name")).isFalse();
        assertThat(selector.path("matchExpressions").path(0).path("key").asText()).isEqualTo("batch.muster.dev/task-name");
        assertThat(pod.path("containers").path(0).path("env").path(0).path("valueFrom").path("fieldRef").path("fieldPath").asText())
                .isEqualTo("metadata.labels['batch.muster.dev/task-name']");
        // Volcano's task index is an annotation; Muster's is a label.
        assertThat(pod.path("containers").path(0).path("env").path(1).path("valueFrom").path("fieldRef").path("fieldPath").asText())
                .isEqualTo("metadata.labels['batch.muster.dev/task-index']");
        assertThat(out.has("status")).isFalse();
        assertThat(out.path("metadata").has("uid")).isFalse();
        assertThat(out.path("metadata").path("namespace").asText()).isEqualTo("ml");
        assertThat(job.changes()).anyMatch(c -> c.startsWith("apiVersion: batch.volcano.sh/v1alpha1 -> batch.muster.dev/v1alpha1"))
                .anyMatch(c -> c.startsWith("spec.schedulerName: volcano removed"))
                .anyMatch(c -> c.contains("volcano.sh/task-spec -> batch.muster.dev/task-name"))
                .anyMatch(c -> c.startsWith("metadata.uid removed"))
                .contains("spec.tasks[0].template.spec.restartPolicy: unset: Volcano's pods then restart whenever they "
                        + "exit (Kubernetes' default, Always), Muster's only on failure (OnFailure); set Always to keep Volcano's");
        assertThat(job.notCarried()).isEmpty();
        assertThat(job.source()).isEqualTo("in.yaml: document 1: Job ml/tf");
    }

    @Test
    void selectorsOnVolcanosNamespaceAndQueueLabelsAreKeptSayingTheyWorkWhileTheSettingIsOn() throws Exception {
        Conversion service = convert("""
                apiVersion: v1
                kind: Service
                metadata: {name: research-workers}
                spec:
                  selector: {volcano.sh/queue-name: research, volcano.sh/job-name: tf, volcano.sh/job-type: Horovod}
                  ports: [{port: 80}]
                """).get(0);

        JsonNode selector = service.result().path("spec").path("selector");
        assertThat(selector.path("volcano.sh/queue-name").asText()).isEqualTo("research");
        assertThat(selector.path("batch.muster.dev/job-name").asText()).isEqualTo("tf");
        assertThat(service.changes()).contains("spec.selector: label volcano.sh/job-name -> batch.muster.dev/job-name");
        assertThat(service.notCarried()).containsExactlyInAnyOrder(
                "spec.selector: label volcano.sh/queue-name kept: Muster has no label of its own for it, but its pods "
                        + "carry Volcano's while muster.controllers.volcano-pod-labels is on (the default), so the "
                        + "selector works; with it off it matches no Muster pod",
                "spec.selector: label volcano.sh/job-type has no Muster counterpart; the selector will match no Muster pod");
    }

    @Test
    void aPluginMusterLacksAndAFieldItsSchemaLacksAreRemovedAndSaid() throws Exception {
        Conversion job = convert("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: npu}
                spec:
                  plugins: {hcclrank: [], svc: []}
                  tasks:
                    - name: worker
                      replicas: 1
                      notAVolcanoFieldEither: 3
                      template: {spec: {containers: [{name: main, image: busybox}]}}
                """).get(0);

        assertThat(job.result().path("spec").path("plugins").has("hcclrank")).isFalse();
        assertThat(job.result().path("spec").path("plugins").has("svc")).isTrue();
        assertThat(job.result().path("spec").path("tasks").path(0).has("notAVolcanoFieldEither")).isFalse();
        assertThat(job.notCarried()).containsExactly(
                "spec.plugins.hcclrank: Muster has no hcclrank plugin (it has env, mpi, pytorch, ray, ssh, svc, tensorflow); removed",
                "spec.tasks[0].notAVolcanoFieldEither: Muster's Job has no such field; removed");
    }

    /** Volcano's network-topology fields are in Muster's schema, so they are carried as written. */
    @Test
    void aVcjobsNetworkTopologyRunningEstimateAndTaskPlacementPoliciesAreCarried() throws Exception {
        Conversion job = convert("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: llm}
                spec:
                  schedulerName: volcano
                  runningEstimate: 2h0m0s
                  networkTopology: {mode: soft, highestTierAllowed: 2}
                  tasks:
                    - name: worker
                      replicas: 4
                      topologyPolicy: single-numa-node
                      partitionPolicy:
                        totalPartitions: 2
                        partitionSize: 2
                        minPartitions: 1
                        networkTopology: {mode: hard, highestTierAllowed: 1}
                      template: {spec: {containers: [{name: main, image: busybox}]}}
                """).get(0);

        JsonNode spec = job.result().path("spec");
        assertThat(spec.path("networkTopology").path("mode").asText()).isEqualTo("soft");
        assertThat(spec.path("networkTopology").path("highestTierAllowed").asInt()).isEqualTo(2);
        assertThat(spec.path("runningEstimate").asText()).isEqualTo("2h0m0s");
        JsonNode worker = spec.path("tasks").path(0);
        assertThat(worker.path("topologyPolicy").asText()).isEqualTo("single-numa-node");
        assertThat(worker.path("partitionPolicy").path("partitionSize").asInt()).isEqualTo(2);
        assertThat(worker.path("partitionPolicy").path("networkTopology").path("highestTierAllowed").asInt()).isEqualTo(1);
        assertThat(job.notCarried()).isEmpty();
    }

    @Test
    void aPodGroupsSubGroupPolicyIsKeptAndItsNetworkTopologySaidNotCarried() throws Exception {
        Conversion group = convert("""
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: PodGroup
                metadata: {name: g}
                spec:
                  minMember: 4
                  subGroupPolicy:
                  - name: worker
                    subGroupSize: 2
                    minSubGroups: 1
                    labelSelector: {matchLabels: {volcano.sh/task-spec: worker}}
                    matchLabelKeys: [volcano.sh/partition-id]
                    networkTopology: {mode: hard, highestTierAllowed: 1}
                """).get(0);

        JsonNode policy = group.result().path("spec").path("subGroupPolicy").path(0);
        assertThat(policy.path("subGroupSize").asInt()).isEqualTo(2);
        assertThat(policy.path("minSubGroups").asInt()).isEqualTo(1);
        assertThat(policy.path("matchLabelKeys").path(0).asText()).isEqualTo("volcano.sh/partition-id");
        assertThat(policy.path("labelSelector").path("matchLabels").path("batch.muster.dev/task-name").asText())
                .as("rewritten as every selector on the task label is").isEqualTo("worker");
        assertThat(policy.has("networkTopology")).isFalse();
        assertThat(group.notCarried()).singleElement().asString().startsWith("spec.subGroupPolicy[0].networkTopology");
    }

    @Test
    void anotherSchedulerIsKeptAndSaid() throws Exception {
        Conversion job = convert("""
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: other}
                spec:
                  schedulerName: default-scheduler
                  tasks: [{name: t, replicas: 1, template: {spec: {containers: [{name: c, image: busybox}]}}}]
                """).get(0);

        assertThat(job.result().path("spec").path("schedulerName").asText()).isEqualTo("default-scheduler");
        assertThat(job.notCarried()).containsExactly(
                "spec.schedulerName: default-scheduler kept: the job's pods wait for that scheduler, not Muster's");
    }

    @Test
    void aQueueKeepsItsWeightLimitAndGuaranteeAndSaysWhatMusterHasNoFieldFor() throws Exception {
        Conversion queue = convert("""
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: team-a}
                spec:
                  weight: 3
                  reclaimable: false
                  capability: {cpu: "64", nvidia.com/gpu: "16"}
                  guarantee: {resource: {nvidia.com/gpu: "4"}}
                  deserved: {nvidia.com/gpu: "8"}
                  parent: root
                  extendClusters: [{name: c1}]
                status: {state: Closed}
                """).get(0);

        JsonNode spec = queue.result().path("spec");
        assertThat(queue.result().path("apiVersion").asText()).isEqualTo("scheduling.muster.dev/v1alpha1");
        assertThat(spec.path("weight").asInt()).isEqualTo(3);
        assertThat(spec.path("limit").path("nvidia.com/gpu").asText()).isEqualTo("16");
        assertThat(spec.path("guarantee").path("nvidia.com/gpu").asText()).isEqualTo("4");
        assertThat(spec.path("state").asText()).isEqualTo("Closed");
        assertThat(spec.has("parent")).isFalse();
        assertThat(spec.has("deserved")).isFalse();
        assertThat(spec.has("extendClusters")).isFalse();
        assertThat(queue.changes()).contains("spec.capability -> spec.limit", "spec.guarantee.resource -> spec.guarantee",
                "status.state: Closed -> spec.state: Closed");
        assertThat(queue.notCarried()).hasSize(3)
                .anyMatch(l -> l.startsWith("spec.deserved: Muster computes a queue's fair share"))
                .anyMatch(l -> l.startsWith("spec.reclaimable: false: Muster has no such switch"))
                .contains("spec.extendClusters: Muster's Queue has no such field; removed");
    }

    /** Volcano's DRA quotas (its capacity plugin's deviceclass/ keys) become the key Muster counts devices by. */
    @Test
    void aQueuesDraDeviceCountQuotaIsRenamedAndACapacityQuotaIsSaidNotCarried() throws Exception {
        Conversion queue = convert("""
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: gpu-team}
                spec:
                  capability: {cpu: "8", deviceclass/gpu.nvidia.com: "1", memory.deviceclass/gpu.nvidia.com: "80Gi"}
                  guarantee: {resource: {deviceclass/gpu.nvidia.com: "1"}}
                """).get(0);

        JsonNode spec = queue.result().path("spec");
        assertThat(spec.path("limit").path("deviceclass.resource.kubernetes.io/gpu.nvidia.com").asText()).isEqualTo("1");
        assertThat(spec.path("limit").path("cpu").asText()).isEqualTo("8");
        assertThat(spec.path("limit").has("deviceclass/gpu.nvidia.com")).isFalse();
        assertThat(spec.path("limit").has("memory.deviceclass/gpu.nvidia.com")).isFalse();
        assertThat(spec.path("guarantee").path("deviceclass.resource.kubernetes.io/gpu.nvidia.com").asText()).isEqualTo("1");
        assertThat(queue.changes()).contains("spec.limit.deviceclass/gpu.nvidia.com -> "
                + "spec.limit.deviceclass.resource.kubernetes.io/gpu.nvidia.com");
        assertThat(queue.notCarried()).anyMatch(l -> l.startsWith("spec.limit.memory.deviceclass/gpu.nvidia.com: a quota "
                + "on a capacity of DRA devices"));
    }

    @Test
    void volcanosHierarchyAnnotationsBecomeParentQueuesWithTheirWeightsEachAddedOnce() throws Exception {
        List<Conversion> out = convert(
                queue("root-eng-prod", "root/eng/prod", "1/2/8"),
                queue("root-eng-dev", "root/eng/dev", "1/2/2"),
                queue("root-sci-prod", "root/sci/prod", "1/8/8"),
                """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata: {name: root}
                spec: {weight: 1}
                """);

        assertThat(out).extracting(c -> c.result() == null ? null : c.result().path("metadata").path("name").asText())
                .containsExactly("root-eng-prod", "eng", "root-eng-dev", "root-sci-prod", "sci", null);
        assertThat(spec(out, "eng").path("weight").asInt()).isEqualTo(2);
        assertThat(spec(out, "eng").has("parent")).isFalse();
        assertThat(spec(out, "sci").path("weight").asInt()).isEqualTo(8);
        assertThat(spec(out, "root-eng-prod").path("parent").asText()).isEqualTo("eng");
        assertThat(spec(out, "root-eng-prod").path("weight").asInt()).isEqualTo(8);
        assertThat(spec(out, "root-eng-dev").path("weight").asInt()).isEqualTo(2);
        assertThat(out.get(0).result().path("metadata").has("annotations")).isFalse();
        assertThat(out.get(5).notCarried()).singleElement().asString().startsWith("Queue root: Volcano's root queue has no Muster object");
    }

    @Test
    void aDeploymentsPodsLeaveVolcanoForMusterAndKeepTheGroupAnnotationMusterReads() throws Exception {
        Conversion deployment = convert("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web}
                spec:
                  replicas: 2
                  template:
                    metadata:
                      annotations: {scheduling.k8s.io/group-name: web-group}
                    spec:
                      schedulerName: volcano
                      containers: [{name: c, image: nginx}]
                """).get(0);

        JsonNode template = deployment.result().path("spec").path("template");
        assertThat(template.path("spec").path("schedulerName").asText()).isEqualTo("muster");
        assertThat(template.path("metadata").path("annotations").path("scheduling.k8s.io/group-name").asText()).isEqualTo("web-group");
        assertThat(deployment.changes()).containsExactly("spec.template.spec.schedulerName: volcano -> muster");
        assertThat(deployment.result().path("apiVersion").asText()).isEqualTo("apps/v1");
    }

    @Test
    void aVolcanoKindMusterLacksIsNotWrittenAndSaid() throws Exception {
        Conversion command = convert("""
                apiVersion: bus.volcano.sh/v1alpha1
                kind: Command
                metadata: {name: abort}
                action: AbortJob
                """).get(0);

        assertThat(command.result()).isNull();
        assertThat(command.notCarried()).singleElement().asString().contains("Muster has no such kind");
    }

    @Test
    void aVolcanoJobInAnArgoTemplatesStringManifestIsSaidWithItsTemplateAndLeftAsWritten() throws Exception {
        String manifest = """
                # Argo fills in the name before this is YAML.
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata:
                  name: {{workflow.parameters.job-name}}
                spec:
                  schedulerName: volcano
                  tasks: [{name: t, replicas: 1, template: {spec: {containers: [{name: c, image: busybox}]}}}]
                """;
        ObjectNode workflow = (ObjectNode) YAML.readTree("""
                apiVersion: argoproj.io/v1alpha1
                kind: WorkflowTemplate
                metadata: {generateName: flow-, namespace: ml}
                spec:
                  entrypoint: main
                  templates:
                    - name: main
                      steps: [[{name: run, template: submit}, {name: note, template: config}]]
                    - name: submit
                      resource: {action: create, successCondition: status.state.phase == Completed}
                    - name: config
                      resource:
                        action: create
                        manifest: "apiVersion: v1\\nkind: ConfigMap\\nmetadata: {name: c}\\n"
                """);
        ((ObjectNode) workflow.path("spec").path("templates").path(1).path("resource")).put("manifest", manifest);

        Conversion conversion = CONVERTER.convert(List.of(new VolcanoConverter.Source("in.yaml", 1, workflow))).get(0);

        assertThat(conversion.notCarried()).singleElement().asString()
                .startsWith("spec.templates[1].resource.manifest (template submit): holds a Volcano Job "
                        + "(batch.volcano.sh/v1alpha1) as a string, which convert does not rewrite; convert that manifest on its own")
                .contains("create jobs.batch.muster.dev");
        assertThat(conversion.result().path("spec").path("templates").path(1).path("resource").path("manifest").asText())
                .isEqualTo(manifest);
        assertThat(conversion.source()).isEqualTo("in.yaml: document 1: WorkflowTemplate ml/flow-*");
    }

    private static String queue(String name, String hierarchy, String weights) {
        return """
                apiVersion: scheduling.volcano.sh/v1beta1
                kind: Queue
                metadata:
                  name: %s
                  annotations: {volcano.sh/hierarchy: %s, volcano.sh/hierarchy-weights: %s}
                spec: {weight: 1}
                """.formatted(name, hierarchy, weights);
    }

    private static JsonNode spec(List<Conversion> out, String queue) {
        return out.stream().filter(c -> c.result() != null && c.result().path("metadata").path("name").asText().equals(queue))
                .findFirst().orElseThrow().result().path("spec");
    }
}
