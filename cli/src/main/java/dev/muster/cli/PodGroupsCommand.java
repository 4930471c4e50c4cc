package dev.muster.cli;

import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.PodGroupDefaults;
import dev.muster.api.scheduling.v1alpha1.PodGroupStatus;
import picocli.CommandLine.Command;

import java.util.List;

/** {@code muster pg}: PodGroups with their phase, quorum and pod counts. */
@Command(name = "pg", description = "Lists PodGroups.")
final class PodGroupsCommand extends ListCommand<PodGroup> {
    PodGroupsCommand() {
        super(PodGroup.class, List.of("NAME", "PHASE", "MIN", "RUNNING", "SUCCEEDED", "FAILED", "AGE"));
    }

    @Override
    List<String> cells(PodGroup group) {
        PodGroupStatus status = group.getStatus() == null ? new PodGroupStatus() : group.getStatus();
        return List.of(group.getMetadata().getName(),
                status.getPhase() == null ? JobsCommand.NONE : status.getPhase().name(),
                String.valueOf(PodGroupDefaults.minMember(group.getSpec())),
                String.valueOf(status.getRunning()), String.valueOf(status.getSucceeded()),
                String.valueOf(status.getFailed()),
                Ages.since(group.getMetadata().getCreationTimestamp(), cli.clock.instant()));
    }
}
