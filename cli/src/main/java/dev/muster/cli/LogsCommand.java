package dev.muster.cli;

import dev.muster.api.MusterLabels;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.Comparator;
import java.util.List;

/** {@code muster logs job NAME [--task T]}: the logs of a Job's pods, each container under a header line. */
@Command(name = "logs", description = "Prints the logs of a Job's pods.")
final class LogsCommand extends JobCommand {
    @Option(names = "--task", paramLabel = "TASK", description = "Only the pods of this task.")
    String task;

    @Override
    public Integer call() {
        try (KubernetesClient client = job.cluster.connect()) {
            job.get(client);
            var selected = client.pods().inNamespace(job.cluster.namespace(client)).withLabel(MusterLabels.JOB_NAME, job.name);
            if (task != null) {
                selected = selected.withLabel(MusterLabels.TASK_NAME, task);
            }
            List<Pod> pods = selected.list().getItems().stream()
                    .sorted(Comparator.comparing(p -> p.getMetadata().getName())).toList();
            if (pods.isEmpty()) {
                cli.err.println("job " + job.name + (task == null ? "" : " task " + task) + " has no pods");
            }
            for (Pod pod : pods) {
                for (Container container : pod.getSpec().getContainers()) {
                    String name = pod.getMetadata().getName() + " " + container.getName();
                    try {
                        String log = client.pods().inNamespace(pod.getMetadata().getNamespace())
                                .withName(pod.getMetadata().getName()).inContainer(container.getName()).getLog();
                        cli.out.println("==> " + name + " <==");
                        cli.out.print(log);
                    } catch (KubernetesClientException e) {
                        // A container not started yet, or a cluster that serves no logs: one line says so, and the
                        // other pods' logs still print.
                        String why = e.getStatus() == null || e.getStatus().getMessage() == null ? ""
                                : ": " + e.getStatus().getMessage();
                        cli.out.println("==> " + name + ": no logs from the API server (HTTP " + e.getCode() + why + ") <==");
                    }
                }
            }
            return 0;
        }
    }
}
