package dev.muster.scheduler.core.model;

import java.util.Objects;

/**
 * What the scheduler needs to know of a PersistentVolumeClaim.
 *
 * @param namespace        claim namespace
 * @param name             claim name
 * @param volumeName       the PersistentVolume it is bound to ({@code spec.volumeName}); {@code null} while unbound
 * @param storageClassName {@code spec.storageClassName}; {@code null} or empty for none
 */
public record ClaimInfo(String namespace, String name, String volumeName, String storageClassName) {
    public ClaimInfo {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        volumeName = volumeName == null || volumeName.isEmpty() ? null : volumeName;
        storageClassName = storageClassName == null || storageClassName.isEmpty() ? null : storageClassName;
    }
}
