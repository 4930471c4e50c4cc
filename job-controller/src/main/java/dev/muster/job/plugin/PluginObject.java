package dev.muster.job.plugin;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;

import java.util.function.Supplier;

/**
 * An object a plugin wants in the job's namespace. It is built only when it has to be created (or, if
 * {@code synced}, compared), so an ssh key is generated once; namespace and owner are set by the writer.
 *
 * @param type   its kind
 * @param name   its name
 * @param build  makes it, name and content set
 * @param synced whether its {@code data} follows the job (host lists follow the replicas), for ConfigMaps
 *               only; otherwise it is kept as first created, e.g. the ssh key across restarts
 */
public record PluginObject(Class<? extends HasMetadata> type, String name, Supplier<? extends HasMetadata> build,
                           boolean synced) {
    /** Checks that only a ConfigMap is synced: the writer compares and updates nothing else. */
    public PluginObject {
        if (synced && type != ConfigMap.class) {
            throw new IllegalArgumentException("only a ConfigMap can follow the job, not a " + type.getSimpleName());
        }
    }

    /** {@code Kind/name}, as listed in {@code status.controlledResources}. */
    public String reference() {
        return type.getSimpleName() + "/" + name;
    }
}
