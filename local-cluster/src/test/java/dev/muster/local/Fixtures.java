package dev.muster.local;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobValidationCorpusTest;
import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;

import java.time.Duration;
import java.util.function.BiConsumer;

/** Objects the tests create. */
public final class Fixtures {
    /**
     * Fast kubelet timings so that pod lifecycles take well under a second; a crash-looping container's back-off
     * goes 200 ms, 400 ms, ... up to 6 s.
     */
    public static final LocalClusterConfig FAST = LocalClusterConfig.defaults().withNodes(2)
            .withPodStartDelay(Duration.ofMillis(100)).withDefaultRunTime(Duration.ofMillis(300))
            .withRestartBackOff(Duration.ofMillis(200));

    private Fixtures() {
    }

    /** An unbound pod with one container that the simulated kubelet would finish (restart policy Never). */
    public static Pod pod(String name) {
        return new PodBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withRestartPolicy("Never")
                .addNewContainer().withName("main").withImage("busybox").endContainer()
                .endSpec().build();
    }

    /** A valid Job of one task of one pod ({@code minAvailable: 1}): admission refuses a Job without tasks. */
    public static Job job(String name) {
        Job job = JobValidationCorpusTest.job("minAvailable: 1\ntasks:\n- {name: worker, "
                + JobValidationCorpusTest.CONTAINERS + "}");
        job.getMetadata().setName(name);
        return job;
    }

    /** A watcher that hands every event to {@code events}. */
    public static <T> Watcher<T> watcher(BiConsumer<Watcher.Action, T> events) {
        return new Watcher<>() {
            @Override
            public void eventReceived(Action action, T resource) {
                events.accept(action, resource);
            }

            @Override
            public void onClose(WatcherException cause) {
                // the tests close their watches themselves
            }
        };
    }

    public static Binding binding(String pod, String node) {
        return new BindingBuilder().withNewMetadata().withName(pod).endMetadata()
                .withNewTarget().withApiVersion("v1").withKind("Node").withName(node).endTarget().build();
    }
}
