package dev.muster.rendering.plugin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.batch.v1alpha1.validation.FieldError;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code tensorflow}: {@code TF_CONFIG} for {@code tf.distribute}. Each pod of a role's task gets the cluster
 * spec (every role's pods as {@code host:port}) and its own task type and index, and declares the port.
 * Roles are {@code ps}, {@code worker}, {@code chief} and {@code evaluator}, each the task of that name
 * unless an argument names another; a role whose task the job lacks is left out.
 */
public final class TensorFlowPodPlugin implements PodPlugin {
    /** Plugin name in {@code spec.plugins}. */
    public static final String NAME = "tensorflow";
    static final List<String> ROLES = List.of("chief", "ps", "worker", "evaluator");
    static final String PORT = "port";
    static final String DEFAULT_PORT = "2222";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<String> valuedArguments() {
        return Set.of("ps", "worker", "chief", "evaluator", PORT);
    }

    @Override
    public List<String> implies() {
        return List.of(SvcPodPlugin.NAME);
    }

    @Override
    public void validate(Job job, PluginArgs args, List<FieldError> errors) {
        ROLES.forEach(role -> TaskArgument.check(job, NAME, args, role, role, false, errors));
        Ports.check(NAME, args, PORT, errors);
        if (ROLES.stream().noneMatch(role -> JobHosts.task(job, args.value(role, role)).isPresent())) {
            errors.add(new FieldError("spec.plugins." + NAME, "no task plays a role (--ps, --worker, --chief, --evaluator)"));
        }
    }

    @Override
    public void onPodCreate(Job job, PluginArgs args, TaskSpec task, int index, Pod pod) {
        Optional<String> role = ROLES.stream().filter(r -> task.getName().equals(args.value(r, r))).findFirst();
        if (role.isEmpty()) {
            return;
        }
        int port = Integer.parseInt(args.value(PORT, DEFAULT_PORT));
        PodEdits.env(pod, "TF_CONFIG", tfConfig(job, args, role.get(), index));
        PodEdits.port(pod, "tfjob-port", port);
    }

    /** The {@code TF_CONFIG} JSON of pod {@code index} of the task playing {@code role}. */
    static String tfConfig(Job job, PluginArgs args, String role, int index) {
        String port = args.value(PORT, DEFAULT_PORT);
        Map<String, List<String>> cluster = new LinkedHashMap<>();
        for (String r : ROLES) {
            JobHosts.task(job, args.value(r, r)).ifPresent(t ->
                    cluster.put(r, JobHosts.hosts(job, t).stream().map(h -> h + ":" + port).toList()));
        }
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("cluster", cluster);
        Map<String, Object> self = new LinkedHashMap<>();
        self.put("type", role);
        self.put("index", index);
        config.put("task", self);
        try {
            return JSON.writeValueAsString(config);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("TF_CONFIG of plain maps must serialise", e);
        }
    }
}
