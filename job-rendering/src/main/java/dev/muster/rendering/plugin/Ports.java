package dev.muster.rendering.plugin;

import dev.muster.api.batch.v1alpha1.validation.FieldError;

import java.util.List;

/** Checks a {@code --port} argument: a TCP port number. */
final class Ports {
    private Ports() {
    }

    static void check(String plugin, PluginArgs args, String argument, List<FieldError> errors) {
        args.value(argument).ifPresent(value -> {
            boolean valid;
            try {
                int port = Integer.parseInt(value);
                valid = port >= 1 && port <= 65535;
            } catch (NumberFormatException e) {
                valid = false;
            }
            if (!valid) {
                errors.add(new FieldError("spec.plugins." + plugin, "argument --" + argument
                        + " must be a port number from 1 to 65535, was '" + value + "'"));
            }
        });
    }
}
