package dev.muster.cli;

import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.local.autoscaler.NodeGroup;
import dev.muster.manager.MusterApplication;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code muster describe job} names the ProvisioningRequest a job waits for and its state, on a local cluster
 * whose simulated autoscaler's only group refuses every scale-up.
 */
@Tag("emulator")
class DescribeProvisioningTest {

    @TempDir
    Path dir;
    private LocalCluster cluster;
    private ConfigurableApplicationContext manager;

    @AfterEach
    void stop() {
        if (manager != null) {
            manager.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void describeSaysWhichRequestTheJobWaitsForAndTheAutoscalersWordOnIt() throws Exception {
        cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(2).withNodeGpus(8).withNodeCpu("32")
                .withNodeMemory("256Gi").withNodeGroups(NodeGroup.parse("gpu=0..4:cpu=32,memory=256Gi,nvidia.com/gpu=8,fail=true")));
        manager = MusterApplication.start(Map.of("muster.kubernetes.master-url", cluster.url(), "server.port", 0,
                "server.address", "127.0.0.1", "spring.main.banner-mode", "off", "muster.leader-election.enabled", false));
        CliRunner muster = new CliRunner(cluster, dir);
        CliRunner.apply(cluster, dir, """
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: train}
                spec:
                  minAvailable: 4
                  tasks:
                  - name: worker
                    replicas: 4
                    template:
                      spec:
                        restartPolicy: Never
                        containers:
                        - name: trainer
                          image: trainer
                          resources: {requests: {cpu: "4", memory: 16Gi, nvidia.com/gpu: "8"}, limits: {nvidia.com/gpu: "8"}}
                """);

        await().atMost(Patience.PATIENCE).untilAsserted(() -> assertThat(muster.run("describe", "job", "train").out())
                .contains("Waiting for ProvisioningRequest default/train-1 (Failed: ")
                .contains("Node group gpu refused to add 2 nodes: quota exceeded"));
    }
}
