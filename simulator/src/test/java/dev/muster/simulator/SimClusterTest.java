package dev.muster.simulator;

import dev.muster.scheduler.core.model.NodeInfo;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.StringReader;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SimClusterTest {

    @Test
    void theBundledPhillyClusterHas352NodesOf8Gpus() {
        SimCluster cluster = SimCluster.load("philly");

        assertThat(cluster.nodes()).hasSize(352);
        assertThat(cluster.totalGpus()).isEqualTo(2816);
        assertThat(cluster.vcNodes()).hasSize(11).containsEntry("6214e9", 64).containsEntry("ed69ec", 8);
        assertThat(cluster.nodes().get(0).labels()).containsEntry(SimCluster.VC_LABEL, "6214e9");
    }

    @Test
    void aGridSpecIsNodesTimesGpus() {
        SimCluster cluster = SimCluster.load("3x4");

        assertThat(cluster.nodes()).extracting(NodeInfo::name).containsExactly("node-0000", "node-0001", "node-0002");
        assertThat(cluster.gpusPerNode()).isEqualTo(4);
    }

    @Test
    void nodeYamlIsReadAsTheSchedulerReadsNodes() {
        SimCluster cluster = SimCluster.fromNodeYaml("nodes.yaml", """
                apiVersion: v1
                kind: Node
                metadata: {name: big, labels: {zone: a}}
                status:
                  allocatable: {cpu: "96", memory: 1Ti, pods: "110", nvidia.com/gpu: "8"}
                  conditions: [{type: Ready, status: "True"}]
                ---
                apiVersion: v1
                kind: Node
                metadata: {name: small}
                status:
                  allocatable: {cpu: "16", memory: 64Gi, pods: "110", nvidia.com/gpu: "2"}
                  conditions: [{type: Ready, status: "True"}]
                """);

        assertThat(cluster.nodes()).extracting(NodeInfo::name).containsExactly("big", "small");
        assertThat(cluster.nodes().get(0).labels()).isEqualTo(Map.of("zone", "a"));
        assertThat(cluster.nodes().get(0).allocatable().get("cpu")).isEqualTo(96_000);
        assertThat(cluster.gpusPerNode()).isEqualTo(8);
        assertThat(cluster.totalGpus()).isEqualTo(10);
    }

    @Test
    void aBadNodeCountNamesItsPlace() {
        assertThatThrownBy(() -> SimCluster.fromVcCsv("vc.csv",
                new BufferedReader(new StringReader("vc,node num\na,4\nb,many\n"))))
                .hasMessage("vc.csv:3:2: node num 'many': not a number");
    }
}
