package dev.muster.manager;

import dev.muster.manager.cli.MusterCli;
import dev.muster.manager.local.LocalCommand;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.ConfigurableApplicationContext;

import java.util.Arrays;
import java.util.Map;

/**
 * The Muster manager: Job controller, PodGroup controller and gang scheduler over one set of shared
 * informers. {@code local ...} as first argument runs it all against an embedded local cluster; one of
 * {@link MusterCli#COMMANDS} runs that command line against the current kubeconfig's cluster, without Spring.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class MusterApplication {

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("local")) {
            System.exit(LocalCommand.run(Arrays.copyOfRange(args, 1, args.length), System.out, System.err));
        }
        if (args.length > 0 && MusterCli.COMMANDS.contains(args[0])) {
            MusterCli.main(args);
        }
        new SpringApplicationBuilder(MusterApplication.class).run(args);
    }

    /** Starts the manager with properties that override application.yaml; used by local mode and tests. */
    public static ConfigurableApplicationContext start(Map<String, Object> properties) {
        return new SpringApplicationBuilder(MusterApplication.class).run(arguments(properties));
    }

    /**
     * Properties as {@code --name=value} command-line arguments: those override application.yaml, while
     * {@link SpringApplicationBuilder#properties} only provides defaults beneath it.
     */
    public static String[] arguments(Map<String, Object> properties) {
        return properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new);
    }
}
