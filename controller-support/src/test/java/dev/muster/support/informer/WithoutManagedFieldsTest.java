package dev.muster.support.informer;

import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.muster.support.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The shared informers cache objects without their managed fields, which the API server keeps. */
@Tag("emulator")
class WithoutManagedFieldsTest {
    @Test
    void cachedAndHandedObjectsHaveNoManagedFieldsAndAWriteFromOneKeepsTheServers() {
        try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(0));
             SharedInformers informers = new SharedInformers(cluster.client())) {
            KubernetesClient client = cluster.client();
            SharedIndexInformer<ConfigMap> maps = informers.informer(ConfigMap.class);
            List<ConfigMap> handed = new CopyOnWriteArrayList<>();
            maps.addEventHandler(new ResourceEventHandler<>() {
                @Override
                public void onAdd(ConfigMap map) {
                    handed.add(map);
                }

                @Override
                public void onUpdate(ConfigMap before, ConfigMap map) {
                    handed.add(map);
                }

                @Override
                public void onDelete(ConfigMap map, boolean finalStateUnknown) {
                }
            });
            informers.start();
            client.configMaps().inNamespace("default").resource(new ConfigMapBuilder().withNewMetadata()
                    .withName("settings").endMetadata().withData(Map.of("mode", "fast")).build()).create();
            assertThat(client.configMaps().inNamespace("default").withName("settings").get().getMetadata()
                    .getManagedFields()).as("the API server records them").isNotEmpty();

            await().atMost(PATIENCE).until(() -> maps.getStore().getByKey("default/settings") != null);
            ConfigMap cached = maps.getStore().getByKey("default/settings");
            assertThat(cached.getMetadata().getManagedFields()).isNullOrEmpty();
            assertThat(handed).singleElement().satisfies(map -> assertThat(map.getMetadata().getManagedFields()).isNullOrEmpty());

            ConfigMap changed = new ConfigMapBuilder(cached).addToData("mode", "slow").build();
            client.configMaps().inNamespace("default").resource(changed).update();
            assertThat(client.configMaps().inNamespace("default").withName("settings").get().getMetadata()
                    .getManagedFields()).as("a write without them keeps them").isNotEmpty();
        }
    }
}
