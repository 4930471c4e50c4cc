package dev.muster.manager;

import dev.muster.support.jvm.CommonPoolParallelism;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.ConfigurableApplicationContext;

import java.util.Map;

/**
 * The Muster manager: Job controller, PodGroup controller and gang scheduler over one set of shared
 * informers, against the cluster of its kubeconfig or service account. The command line ({@code ./muster
 * local}, {@code jobs}, {@code describe}, ...) is the {@code cli} module's, which starts this application
 * through {@link #start} for local mode; this module, the one the image ships, knows nothing of it.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class MusterApplication {

    public static void main(String[] args) {
        CommonPoolParallelism.atLeastTwo();
        new SpringApplicationBuilder(MusterApplication.class).run(args);
    }

    /** Starts the manager with properties that override application.yaml; used by local mode and tests. */
    public static ConfigurableApplicationContext start(Map<String, Object> properties) {
        return start(properties, Map.of());
    }

    /**
     * Starts the manager with {@code properties} that override application.yaml and {@code defaults} beneath
     * everything else, which the user's environment variables and system properties override.
     */
    public static ConfigurableApplicationContext start(Map<String, Object> properties, Map<String, Object> defaults) {
        return new SpringApplicationBuilder(MusterApplication.class).properties(defaults).run(arguments(properties));
    }

    /**
     * Properties as {@code --name=value} command-line arguments: those override application.yaml, while
     * {@link SpringApplicationBuilder#properties} only provides defaults beneath it.
     */
    public static String[] arguments(Map<String, Object> properties) {
        return properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new);
    }
}
