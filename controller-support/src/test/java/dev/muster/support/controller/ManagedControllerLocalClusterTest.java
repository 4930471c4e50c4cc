package dev.muster.support.controller;

import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.gang.GangVerdict;
import dev.muster.gang.GangVerdictBoard;
import dev.muster.support.informer.SharedInformers;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import static dev.muster.support.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A controller can be started, stopped and started again; stopped, nothing it attached fires. */
@Tag("emulator")
class ManagedControllerLocalClusterTest {
    private static final String INDEX = "test/by-name";

    private LocalCluster cluster;
    private KubernetesClient client;
    private SharedInformers informers;
    private SharedIndexInformer<ConfigMap> configMaps;
    private final GangVerdictBoard verdicts = new GangVerdictBoard();
    private final Set<ObjectKey> reconciled = ConcurrentHashMap.newKeySet();
    private final AtomicInteger handled = new AtomicInteger();
    private final AtomicInteger heard = new AtomicInteger();
    private Watching controller;

    /** Reconciles ConfigMaps, woken by their informer and by verdicts on groups of the same name. */
    private final class Watching extends ManagedController {
        Watching() {
            super(new Controller("watching", key -> {
                reconciled.add(key);
                return ReconcileResult.done();
            }, 1));
        }

        @Override
        protected void attach(Attachments attachments) {
            Attachments.index(configMaps, Map.of(INDEX, configMap -> List.of(configMap.getMetadata().getName())));
            attachments.handler(configMaps, workers().<ConfigMap>enqueueing(configMap -> {
                handled.incrementAndGet();
                return Optional.of(ObjectKey.of(configMap));
            }));
            Consumer<GangVerdict> listener = verdict -> {
                heard.incrementAndGet();
                workers().enqueue(new ObjectKey(verdict.namespace(), verdict.podGroup()));
            };
            verdicts.addListener(listener);
            attachments.onDetach(() -> verdicts.removeListener(listener));
        }
    }

    @BeforeEach
    void start() {
        cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(0));
        client = cluster.client();
        informers = new SharedInformers(client);
        configMaps = informers.informer(ConfigMap.class);
        informers.start();
        controller = new Watching();
    }

    @AfterEach
    void close() {
        controller.close();
        informers.close();
        cluster.close();
    }

    @Test
    void startStopStartWorksAndAStoppedControllerHearsNothing() {
        controller.start();
        create("first");
        await().atMost(PATIENCE).until(() -> reconciled.contains(key("first")));

        controller.stop();
        int handledWhenStopped = handled.get();
        int heardWhenStopped = heard.get();
        Set<String> delivered = ConcurrentHashMap.newKeySet();
        configMaps.addEventHandler(recording(delivered));
        create("while-stopped");
        verdicts.publish(verdict("while-stopped"));
        await().atMost(PATIENCE).until(() -> delivered.contains("while-stopped"));
        await().during(Duration.ofMillis(500)).atMost(PATIENCE).until(() -> handled.get() == handledWhenStopped
                && heard.get() == heardWhenStopped && !reconciled.contains(key("while-stopped")));

        controller.start();
        await("an informer hands a new handler what it holds").atMost(PATIENCE)
                .until(() -> reconciled.contains(key("while-stopped")));
        verdicts.publish(verdict("from-the-board"));
        await().atMost(PATIENCE).until(() -> reconciled.contains(key("from-the-board")));
        assertThat(configMaps.getIndexer().byIndex(INDEX, "first")).hasSize(1);
    }

    /** A handler of the test's own, which shows when the informer delivered an object. */
    private static ResourceEventHandler<ConfigMap> recording(Set<String> delivered) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(ConfigMap configMap) {
                delivered.add(configMap.getMetadata().getName());
            }

            @Override
            public void onUpdate(ConfigMap before, ConfigMap configMap) {
            }

            @Override
            public void onDelete(ConfigMap configMap, boolean deletedFinalStateUnknown) {
            }
        };
    }

    private void create(String name) {
        client.configMaps().inNamespace("default").resource(new ConfigMapBuilder().withNewMetadata().withName(name)
                .withNamespace("default").endMetadata().build()).create();
    }

    private static ObjectKey key(String name) {
        return new ObjectKey("default", name);
    }

    private static GangVerdict verdict(String group) {
        return new GangVerdict("default", group, GangVerdict.Outcome.UNSCHEDULABLE, "NotEnoughResources", "no room",
                "t-" + group, null);
    }
}
