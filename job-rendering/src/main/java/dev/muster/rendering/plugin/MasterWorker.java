package dev.muster.rendering.plugin;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.validation.FieldError;

import java.util.List;
import java.util.Set;

/**
 * The {@code --master}, {@code --worker} and {@code --port} arguments of the launcher-and-workers plugins
 * (mpi, pytorch), with their defaults: tasks {@code master} and {@code worker}, the plugin's own port.
 */
public record MasterWorker(String master, String worker, int port) {
    static final String MASTER = "master";
    static final String WORKER = "worker";
    static final String PORT = "port";
    static final Set<String> ARGUMENTS = Set.of(MASTER, WORKER, PORT);

    /** The roles and port {@code args} give, each defaulted; {@code defaultPort} is the plugin's own. */
    public static MasterWorker of(PluginArgs args, String defaultPort) {
        return new MasterWorker(args.value(MASTER, MASTER), args.value(WORKER, WORKER),
                Integer.parseInt(args.value(PORT, defaultPort)));
    }

    /** The master task must exist, the worker task too if {@code workerRequired}, and the port be one. */
    static void validate(Job job, String plugin, PluginArgs args, boolean workerRequired, List<FieldError> errors) {
        TaskArgument.check(job, plugin, args, MASTER, MASTER, true, errors);
        TaskArgument.check(job, plugin, args, WORKER, WORKER, workerRequired, errors);
        Ports.check(plugin, args, PORT, errors);
    }
}
