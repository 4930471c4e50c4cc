package dev.muster.scheduler;

import io.fabric8.kubernetes.client.informers.cache.Cache;

/**
 * A pod the cycle assumed onto a node and that is to be bound there.
 *
 * @param namespace pod namespace
 * @param podName   pod name
 * @param uid       pod UID; the binding names it so that a pod recreated under the same name is not bound
 * @param nodeName  target node
 */
record BindRequest(String namespace, String podName, String uid, String nodeName) {

    /** The pod's key in the informer's store and the cache. */
    String podKey() {
        return Cache.namespaceKeyFunc(namespace, podName);
    }
}
