/**
 * The objects as the API server keeps them: the store's indexes (by kind and namespace, by owner), watches and their
 * history ({@link dev.muster.local.store.WatchHub}), label and field selectors, JSON and merge patches, generated
 * names, and deletion (graceful, finalizers, delete options, cascading to dependents).
 *
 * <p>May use protocol only; used by server, disruption and {@code dev.muster.local} (the watch history size).
 */
package dev.muster.local.store;
