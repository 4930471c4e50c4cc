package dev.muster.manager.e2e;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.manager.MusterApplication;
import dev.muster.manager.leadership.Exiter;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The whole manager, as a Spring context, running against a fresh local cluster over HTTP, with leader
 * election at its defaults (it is the only candidate, so it leads at once). Public for the cli module's tests
 * (its test jar), which run the converted Volcano examples on it.
 */
public final class ManagerOnLocalCluster implements AutoCloseable {
    final LocalCluster cluster;
    ConfigurableApplicationContext manager;
    /** Exit codes the manager asked for; a test JVM must not exit with it. */
    final List<Integer> exits = new CopyOnWriteArrayList<>();

    /**
     * Three nodes of 4 cpu and 8Gi: each fits exactly one of the 3-cpu pods the gang tests ask for, so a
     * gang's quorum is counted in nodes.
     */
    static LocalClusterConfig threeOnePodNodes() {
        return LocalClusterConfig.defaults().withNodes(3).withNodeCpu("4").withNodeMemory("8Gi");
    }

    public ManagerOnLocalCluster(LocalClusterConfig config) {
        cluster = LocalCluster.start(config);
        manager = startManager(cluster, Map.of(), exits::add);
    }

    /**
     * Starts a manager against {@code cluster} with extra properties, ending the process through
     * {@code exiter} instead of {@link System#exit}.
     */
    static ConfigurableApplicationContext startManager(LocalCluster cluster, Map<String, Object> properties, Exiter exiter) {
        Map<String, Object> all = new HashMap<>(Map.of(
                "muster.kubernetes.master-url", cluster.url(),
                "server.port", 0,
                "spring.main.banner-mode", "off"));
        all.putAll(properties);
        return new SpringApplicationBuilder(MusterApplication.class)
                .initializers(context -> context.getBeanFactory().registerSingleton("exiter", exiter))
                .run(MusterApplication.arguments(all));
    }

    public KubernetesClient client() {
        return cluster.client();
    }

    /** The Job in namespace {@code default}; {@code null} while it does not exist. */
    public Job job(String name) {
        return client().resources(Job.class).inNamespace("default").withName(name).get();
    }

    /** The Job's phase; {@code null} while it or its status does not exist. */
    public JobPhase phase(String name) {
        Job job = job(name);
        return job == null || job.getStatus() == null || job.getStatus().getState() == null ? null
                : job.getStatus().getState().getPhase();
    }

    /** {@link #twoCyclesFrom(ConfigurableApplicationContext)} of this manager. */
    public Callable<Boolean> twoCyclesFromNow() {
        return twoCyclesFrom(manager);
    }

    /**
     * The positive control of the manager's "nothing happens" checks ({@code Stillness}): true once the manager's
     * gang scheduler has completed two cycles after this call, so that one of them began after it and could have
     * placed, admitted or asked for what the check says it does not. The count is the
     * {@code muster.scheduler.cycle} timer's, which times only cycles run with a synced cache.
     */
    static Callable<Boolean> twoCyclesFrom(ConfigurableApplicationContext manager) {
        MeterRegistry meters = manager.getBean(MeterRegistry.class);
        long mark = cycles(meters);
        return () -> cycles(meters) >= mark + 2;
    }

    private static long cycles(MeterRegistry meters) {
        Timer timer = meters.find("muster.scheduler.cycle").timer();
        return timer == null ? 0 : timer.count();
    }

    /** Stops the manager and starts a new one against the same cluster, at the same settings, as a restart does. */
    void restartManager() {
        manager.close();
        manager = startManager(cluster, Map.of(), exits::add);
    }

    Actuator actuator() {
        return new Actuator(manager, cluster);
    }

    @Override
    public void close() {
        manager.close();
        cluster.close();
    }
}
