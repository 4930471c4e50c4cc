package dev.muster.local;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobSpec;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Reads and writes of one object by name, which the emulator answers from its index of stored objects:
 * objects are told apart by group, resource, namespace and name, and every read sees the latest write.
 */
@Tag("emulator")
class ObjectLookupTest extends ApiOnlyClusterTests {
    @BeforeAll
    static void createObjects() {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata()
                .withName("other").endMetadata().build()).create();
    }

    @Test
    void objectsOfTwoGroupsWithTheSameResourceNameAndObjectNameStayApart() {
        client.resource(new JobBuilder().withNewMetadata().withName("twin").withNamespace("default").endMetadata()
                .withNewSpec().withNewTemplate().withNewSpec().addNewContainer().withName("c").withImage("busybox")
                .endContainer().endSpec().endTemplate().endSpec().build()).create();
        client.resource(musterJob("twin")).create();

        Job ours = client.resources(Job.class).inNamespace("default").withName("twin").get();
        ours.getSpec().setMinAvailable(1);
        client.resource(ours).update();

        assertThat(client.resources(Job.class).inNamespace("default").withName("twin").get().getSpec()
                .getMinAvailable()).isEqualTo(1);
        assertThat(client.batch().v1().jobs().inNamespace("default").withName("twin").get().getApiVersion())
                .isEqualTo("batch/v1");
    }

    @Test
    void objectsOfTheSameNameInTwoNamespacesStayApart() {
        client.resource(configMap("default", "settings", "a")).create();
        client.resource(configMap("other", "settings", "b")).create();

        client.configMaps().inNamespace("other").withName("settings").edit(cm -> {
            cm.setData(Map.of("value", "b2"));
            return cm;
        });

        assertThat(client.configMaps().inNamespace("default").withName("settings").get().getData())
                .containsEntry("value", "a");
        assertThat(client.configMaps().inNamespace("other").withName("settings").get().getData())
                .containsEntry("value", "b2");
    }

    @Test
    void aReadAfterEachWriteSeesItAndADeletedObjectIsGone() {
        client.resource(configMap("default", "counter", "0")).create();
        for (int i = 1; i <= 20; i++) {
            ConfigMap current = client.configMaps().inNamespace("default").withName("counter").get();
            assertThat(current.getData()).containsEntry("value", Integer.toString(i - 1));
            current.setData(Map.of("value", Integer.toString(i)));
            client.resource(current).update();
        }

        client.configMaps().inNamespace("default").withName("counter").delete();

        assertThat(client.configMaps().inNamespace("default").withName("counter").get()).isNull();
        assertThatThrownBy(() -> client.resource(configMap("default", "counter", "x")).update())
                .isInstanceOf(KubernetesClientException.class);
    }

    @Test
    void creatingAnObjectThatExistsIsAConflict() {
        client.resource(configMap("default", "once", "1")).create();

        assertThatThrownBy(() -> client.resource(configMap("default", "once", "2")).create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
    }

    private static ConfigMap configMap(String namespace, String name, String value) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
                .withData(Map.of("value", value)).build();
    }

    private static Job musterJob(String name) {
        TaskSpec task = new TaskSpec();
        task.setName("worker");
        JobSpec spec = new JobSpec();
        spec.setTasks(List.of(task));
        Job job = new Job();
        job.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default").build());
        job.setSpec(spec);
        return job;
    }
}
