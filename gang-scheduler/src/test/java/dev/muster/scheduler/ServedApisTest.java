package dev.muster.scheduler;

import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.local.autoscaler.NodeGroup;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the scheduler finds out by discovery when it starts, against the local cluster's API server: whether to watch
 * DRA's kinds (and in which version DeviceTaintRules), and what {@code muster.scheduler.autoscaling: auto} uses.
 */
@Tag("emulator")
class ServedApisTest {

    @Test
    void neitherApiOnAClusterWithoutAutoscalerThenKarpentersOnceItsCrdIsInstalled() {
        try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(1))) {
            assertThat(ServedApis.provisioningRequests(cluster.client())).isFalse();
            assertThat(ServedApis.karpenter(cluster.client())).isFalse();

            cluster.client().apiextensions().v1().customResourceDefinitions().resource(nodePoolCrd()).create();

            await().atMost(Patience.PATIENCE).until(() -> ServedApis.karpenter(cluster.client()));
            assertThat(ServedApis.provisioningRequests(cluster.client())).isFalse();
        }
    }

    @Test
    void provisioningRequestsWhereAClusterAutoscalerServesThem() {
        try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(1)
                .withNodeGroups(NodeGroup.parse("gpu=0..2:cpu=8,memory=32Gi")))) {
            assertThat(ServedApis.provisioningRequests(cluster.client())).isTrue();
            assertThat(ServedApis.karpenter(cluster.client())).isFalse();
        }
    }

    @Test
    void dynamicResourceAllocationWhereResourceSlicesAreServedAndNotForAVersionOrResourceThatIsNot() {
        try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(1))) {
            assertThat(ServedApis.dynamicResourceAllocation(cluster.client())).isTrue();
            assertThat(ServedApis.serves(cluster.client(), "resource.k8s.io/v1beta9", "resourceslices"))
                    .as("a group version the API server does not know").isFalse();
            assertThat(ServedApis.serves(cluster.client(), "resource.k8s.io/v1", "resourcegizmos"))
                    .as("a resource its group version does not list").isFalse();
            assertThat(ServedApis.deviceTaintRules(cluster.client()))
                    .as("the newest version serving DeviceTaintRules: the alpha one, as kube-apiserver 1.34").isEqualTo(
                            "resource.k8s.io/v1alpha3");
        }
    }

    /** Karpenter's NodePool CRD, as much of it as discovery reads. */
    private static CustomResourceDefinition nodePoolCrd() {
        return new CustomResourceDefinitionBuilder()
                .withNewMetadata().withName("nodepools.karpenter.sh").endMetadata()
                .withNewSpec().withGroup("karpenter.sh").withScope("Cluster")
                .withNewNames().withKind("NodePool").withPlural("nodepools").withSingular("nodepool").endNames()
                .addNewVersion().withName("v1").withServed(true).withStorage(true)
                .withNewSchema().withNewOpenAPIV3Schema().withType("object")
                .withXKubernetesPreserveUnknownFields(true).endOpenAPIV3Schema().endSchema()
                .endVersion()
                .endSpec().build();
    }
}
