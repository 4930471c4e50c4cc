package dev.muster.manager.cli;

import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupDefaults;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

import java.util.List;
import java.util.concurrent.Callable;

/** {@code muster pg}: PodGroups with their phase, quorum and pod counts. */
@Command(name = "pg", mixinStandardHelpOptions = true, description = "Lists PodGroups.")
final class PodGroupsCommand implements Callable<Integer> {
    @ParentCommand
    MusterCli cli;
    @Mixin
    ListOptions options;

    @Override
    public Integer call() {
        try (KubernetesClient client = options.cluster.connect()) {
            options.print(cli, client, options.list(client, PodGroup.class),
                    List.of("NAME", "PHASE", "MIN", "RUNNING", "SUCCEEDED", "FAILED", "AGE"), group -> {
                        PodGroupStatus status = group.getStatus() == null ? new PodGroupStatus() : group.getStatus();
                        return List.of(group.getMetadata().getName(),
                                status.getPhase() == null ? JobsCommand.NONE : status.getPhase().name(),
                                String.valueOf(PodGroupDefaults.minMember(group.getSpec())),
                                String.valueOf(status.getRunning()), String.valueOf(status.getSucceeded()),
                                String.valueOf(status.getFailed()),
                                Ages.since(group.getMetadata().getCreationTimestamp(), cli.clock.instant()));
                    });
            return 0;
        }
    }
}
