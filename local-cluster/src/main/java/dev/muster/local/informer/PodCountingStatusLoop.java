package dev.muster.local.informer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * The loop of kube-controller-manager's controllers whose objects' status counts the pods of their namespace (the
 * disruption controller's PodDisruptionBudgets, the resource quota controller's ResourceQuotas), driven only through
 * the API: it watches the objects and the pods, and syncs an object on one thread when it is written or a pod of its
 * namespace changes, or later when its sync asks to be looked at again. A key is queued once per delay, so a burst of
 * pod events costs one sync.
 *
 * @param <T> the kind whose status is kept
 */
public final class PodCountingStatusLoop<T extends HasMetadata> implements AutoCloseable {
    private final String name;
    private final KubernetesClient client;
    private final SharedIndexInformer<T> objects;
    private final SharedIndexInformer<Pod> pods;
    private final BiConsumer<String, T> sync;
    private final ScheduledExecutorService worker;
    private final Set<String> queued = ConcurrentHashMap.newKeySet();

    /**
     * A loop not started yet: {@link #start()} it once whatever {@code sync} uses is in place, as {@code sync} may run
     * from then on.
     *
     * @param name    the controller's name, for its thread and for a failure to start
     * @param client  the controller's client, closed with the loop
     * @param objects an informer of the kept objects, not started yet
     * @param sync    brings one object's status up to date, given its key and the informer's copy of it
     */
    public PodCountingStatusLoop(String name, KubernetesClient client, SharedIndexInformer<T> objects,
                                 BiConsumer<String, T> sync) {
        this.name = name;
        this.client = client;
        this.objects = objects;
        this.pods = client.pods().inAnyNamespace().runnableInformer(0);
        this.sync = sync;
        this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, name.replace(' ', '-'));
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Starts the informers and returns once both have listed. */
    public void start() {
        objects.addEventHandler(new ObjectHandler());
        pods.addEventHandler(new PodHandler());
        InformerSync.awaitAll(name, this::close, pods, objects);
    }

    /** Syncs the object of {@code key} after {@code delay}, unless it is already queued for that delay. */
    public void enqueue(String key, Duration delay) {
        if (queued.add(key + "@" + delay.toMillis())) {
            worker.schedule(() -> {
                queued.remove(key + "@" + delay.toMillis());
                T object = objects.getStore().getByKey(key);
                if (object != null) {
                    sync.accept(key, object);
                }
            }, delay.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** The pods of a namespace as the pod informer has them. */
    public List<Pod> podsOf(String namespace) {
        return pods.getIndexer().byIndex(Cache.NAMESPACE_INDEX, namespace);
    }

    @Override
    public void close() {
        objects.close();
        pods.close();
        worker.shutdownNow();
        client.close();
    }

    private void enqueueObjectsOf(Pod pod) {
        objects.getIndexer().byIndex(Cache.NAMESPACE_INDEX, pod.getMetadata().getNamespace())
                .forEach(object -> enqueue(Cache.metaNamespaceKeyFunc(object), Duration.ZERO));
    }

    private final class ObjectHandler implements ResourceEventHandler<T> {
        @Override
        public void onAdd(T object) {
            enqueue(Cache.metaNamespaceKeyFunc(object), Duration.ZERO);
        }

        @Override
        public void onUpdate(T oldObject, T newObject) {
            enqueue(Cache.metaNamespaceKeyFunc(newObject), Duration.ZERO);
        }

        @Override
        public void onDelete(T object, boolean deletedFinalStateUnknown) {
            // nothing left to keep up to date
        }
    }

    private final class PodHandler implements ResourceEventHandler<Pod> {
        @Override
        public void onAdd(Pod pod) {
            enqueueObjectsOf(pod);
        }

        @Override
        public void onUpdate(Pod oldPod, Pod newPod) {
            enqueueObjectsOf(newPod);
        }

        @Override
        public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
            enqueueObjectsOf(pod);
        }
    }
}
