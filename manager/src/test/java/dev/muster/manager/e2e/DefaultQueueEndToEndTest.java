package dev.muster.manager.e2e;

import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.api.scheduling.v1alpha1.QueueSpec;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.manager.wiring.ManagerLifecycle;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import java.util.Map;

import static dev.muster.manager.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The manager creates the queue {@code default} at start, through the real client, unless it exists. */
@Tag("emulator")
class DefaultQueueEndToEndTest {

    @Test
    void theManagerCreatesTheDefaultQueueWithWeightOneAndNothingElse() {
        try (ManagerOnLocalCluster env = new ManagerOnLocalCluster(LocalClusterConfig.defaults().withNodes(1))) {
            awaitComponents(env.manager);

            Queue queue = env.client().resources(Queue.class).withName(Queue.DEFAULT).get();
            assertThat(queue).isNotNull();
            assertThat(queue.getSpec().getWeight()).isEqualTo(1);
            assertThat(queue.getSpec().getParent()).isNull();
            assertThat(queue.getSpec().getGuarantee()).isNull();
            assertThat(queue.getSpec().getLimit()).isNull();
            assertThat(queue.getMetadata().getNamespace()).as("queues are cluster-scoped").isNull();
        }
    }

    @Test
    void anExistingDefaultQueueIsLeftAsItsOwnerSetIt() {
        try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(1))) {
            Queue own = new Queue();
            own.setMetadata(new ObjectMetaBuilder().withName(Queue.DEFAULT).build());
            QueueSpec spec = new QueueSpec();
            spec.setWeight(5);
            spec.setState(QueueSpec.CLOSED);
            own.setSpec(spec);
            own.setStatus(null);
            // The scheduler writes the queue's status; its spec, and so its generation, is the owner's.
            Long generation = cluster.client().resource(own).create().getMetadata().getGeneration();

            try (ConfigurableApplicationContext manager = ManagerOnLocalCluster.startManager(cluster, Map.of(), code -> { })) {
                awaitComponents(manager);

                Queue queue = cluster.client().resources(Queue.class).withName(Queue.DEFAULT).get();
                assertThat(queue.getMetadata().getGeneration()).isEqualTo(generation);
                assertThat(queue.getSpec().getWeight()).isEqualTo(5);
                assertThat(queue.getSpec().getState()).isEqualTo(QueueSpec.CLOSED);
            }
        }
    }

    /** The queue is ensured before the components start, so once they run it is there. */
    private static void awaitComponents(ConfigurableApplicationContext manager) {
        await().atMost(PATIENCE)
                .until(() -> manager.getBean(ManagerLifecycle.class).componentsRunning());
    }
}
