package dev.muster.support.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;

/** Namespace and name of a namespaced object: the unit of work of a controller. */
public record ObjectKey(String namespace, String name) {

    /** The key of an object. */
    public static ObjectKey of(HasMetadata object) {
        return new ObjectKey(object.getMetadata().getNamespace(), object.getMetadata().getName());
    }

    /** {@code namespace/name}, the key format of fabric8's informer cache. */
    @Override
    public String toString() {
        return namespace == null ? name : namespace + "/" + name;
    }
}
