package dev.muster.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import picocli.CommandLine.Command;

/** {@code muster suspend job NAME}: sets {@code spec.suspend}, so that the Job controller stops the Job's pods. */
@Command(name = "suspend",
        description = "Suspends a Job: its pods stop and the Job stays, to be resumed.")
class SuspendCommand extends JobCommand {
    /** The value this command writes to {@code spec.suspend}. */
    boolean suspend() {
        return true;
    }

    @Override
    public Integer call() {
        try (KubernetesClient client = job.cluster.connect()) {
            job.get(client);
            // A merge patch of the one field: it cannot undo another writer's change to the rest of the spec.
            job.resource(client).patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"suspend\":" + suspend() + "}}");
            cli.out.println("job " + job.cluster.namespace(client) + "/" + job.name + (suspend() ? " suspended" : " resumed"));
            return 0;
        }
    }
}
