package dev.muster.cli;

import dev.muster.api.batch.v1alpha1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.Iterator;
import java.util.List;
import java.util.Set;

/** The {@code job NAME} operands of a command that acts on one Job, as kubectl takes {@code TYPE NAME}, and where. */
final class JobRef {
    /** The names of the kind, as kubectl accepts them: singular, plural and the CRD's short names. */
    static final Set<String> KINDS = Set.of("job", "jobs", "mjob", "mj");

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;
    @Mixin
    ClusterOptions cluster;
    String name;

    @Parameters(index = "0", paramLabel = "job", completionCandidates = Kinds.class,
            description = "The kind of object: job (a Muster Job).")
    void kind(String kind) {
        if (!KINDS.contains(kind)) {
            throw new ParameterException(spec.commandLine(), "unknown kind '" + kind + "'; " + spec.name()
                    + " acts on a job, e.g. muster " + spec.name() + " job NAME");
        }
    }

    @Parameters(index = "1", paramLabel = "NAME", description = "The Job's name.")
    void name(String name) {
        this.name = name;
    }

    /** The Job as a resource of {@code client}, in the chosen namespace. */
    Resource<Job> resource(KubernetesClient client) {
        return client.resources(Job.class).inNamespace(cluster.namespace(client)).withName(name);
    }

    /** The Job. */
    Job get(KubernetesClient client) {
        return get(client, cluster.namespace(client), name);
    }

    /** The Job {@code namespace/name}; a {@link CliException} naming it when it does not exist. */
    static Job get(KubernetesClient client, String namespace, String name) {
        Job job = client.resources(Job.class).inNamespace(namespace).withName(name).get();
        if (job == null) {
            throw CliException.notFound("job", namespace, name);
        }
        return job;
    }

    /** Completion candidates for the kind: the one name shell completion offers. */
    static final class Kinds implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return List.of("job").iterator();
        }
    }
}
