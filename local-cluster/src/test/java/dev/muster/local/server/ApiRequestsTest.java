package dev.muster.local.server;

import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Requests are counted with kube-apiserver's verbs and resources, per client. */
@Tag("emulator")
class ApiRequestsTest {

    @ParameterizedTest
    @CsvSource({
            "GET, /api/v1/namespaces/default/pods, list, pods",
            "GET, /api/v1/pods?watch=true&resourceVersion=5, watch, pods",
            "GET, /api/v1/namespaces/default/pods/p-0, get, pods",
            "POST, /api/v1/namespaces/default/pods/p-0/binding, create, pods/binding",
            "GET, /api/v1/namespaces/default/pods/p-0/log?container=main&previous=true, get, pods/log",
            "PUT, /apis/batch.muster.dev/v1alpha1/namespaces/default/jobs/j/status, update, jobs/status",
            "PATCH, /apis/scheduling.muster.dev/v1alpha1/namespaces/ns/podgroups/g, patch, podgroups",
            "DELETE, /api/v1/namespaces/default/pods?labelSelector=a%3Db, deletecollection, pods",
            "DELETE, /api/v1/namespaces/default/pods/p-0, delete, pods",
            "GET, /api/v1/namespaces/default, get, namespaces",
            "GET, /api/v1/nodes, list, nodes",
            "GET, /apis/coordination.k8s.io/v1, get, (discovery)",
            "POST, /api/v1/namespaces/default/pods?dryRun=All&fieldValidation=Strict, create, pods (dry run)",
            "POST, /api/v1/namespaces/default/pods?fieldValidation=Strict, create, pods",
    })
    void kindsAreTheApiServersVerbsAndResources(String method, String path, String verb, String resource) {
        ApiRequests.Kind kind = ApiRequests.kindOf("fabric8-kubernetes-client/7.4.0", method, path);

        assertThat(kind).isEqualTo(new ApiRequests.Kind(ApiRequests.COMPONENTS, verb, resource));
        assertThat(kind.authorizedResource()).isEqualTo(resource.replace(" (dry run)", ""));
    }

    @Test
    void everyRequestIsCountedForItsClientAndNewKindsAreAnnounced() {
        try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(0));
             KubernetesClient underTest = cluster.newClient()) {
            List<ApiRequests.Kind> announced = new ArrayList<>();
            cluster.apiRequests().onNewKind(announced::add);
            ApiRequests.Kind create = new ApiRequests.Kind(ApiRequests.COMPONENTS, "create", "configmaps");
            for (int i = 0; i < 3; i++) {
                underTest.configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName("cm-" + i)
                        .endMetadata().build()).create();
            }
            cluster.client().configMaps().inNamespace("default").list();

            assertThat(cluster.apiRequests().count(create)).isEqualTo(3);
            assertThat(cluster.apiRequests().count(new ApiRequests.Kind(ApiRequests.LOCAL_CLUSTER, "list", "configmaps")))
                    .isEqualTo(1);
            assertThat(cluster.apiRequests().total(ApiRequests.COMPONENTS)).isEqualTo(3);
            assertThat(announced).contains(create);
            assertThat(new ArrayList<>(cluster.apiRequests().snapshot().values())).isSortedAccordingTo(Comparator.reverseOrder());
        }
    }
}
