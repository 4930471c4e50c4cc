package dev.muster.cli;

import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.client.KubernetesClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code muster delete job NAME}: deletes a Job, and through its ownership its PodGroup and pods. */
@Command(name = "delete", description = "Deletes a Job with its PodGroup and pods.")
final class DeleteCommand extends JobCommand {
    @Option(names = "--cascade", paramLabel = "MODE", defaultValue = "background",
            description = "background (the default, as kubectl's): the Job goes at once and the garbage collector "
                    + "deletes its pods after; foreground: the Job stays, marked for deletion, until its pods are gone; "
                    + "orphan: its pods stay.")
    Cascade cascade;

    /** kubectl's {@code --cascade} values; constants are named as they are typed. */
    enum Cascade {
        background(DeletionPropagation.BACKGROUND), foreground(DeletionPropagation.FOREGROUND),
        orphan(DeletionPropagation.ORPHAN);

        final DeletionPropagation propagation;

        Cascade(DeletionPropagation propagation) {
            this.propagation = propagation;
        }
    }

    @Override
    public Integer call() {
        try (KubernetesClient client = job.cluster.connect()) {
            if (job.resource(client).withPropagationPolicy(cascade.propagation).delete().isEmpty()) {
                throw CliException.notFound("job", job.cluster.namespace(client), job.name);
            }
            cli.out.println("job " + job.cluster.namespace(client) + "/" + job.name + " deleted");
            return 0;
        }
    }
}
