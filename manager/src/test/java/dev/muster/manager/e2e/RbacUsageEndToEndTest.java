package dev.muster.manager.e2e;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.local.server.ApiRequests;
import dev.muster.local.LocalClusterConfig;
import dev.muster.manager.QueueFixtures;
import dev.muster.local.manifest.ManifestLoader;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static dev.muster.manager.Patience.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the manager does to the API server, compared both ways with the permissions {@code docs/security.md}
 * lists (which the chart test compares with the chart's ClusterRole and Role): the manager, with production
 * defaults, runs a workload that takes every path that calls the API server (plugins' objects, a claim of a
 * WaitForFirstConsumer class, a scale that rewrites host lists, a reclaim, an unschedulable pod, a job deleted
 * by its TTL, leader election), and the emulator records each request. A request of a kind the table does not
 * grant fails the test (the chart would make it fail with 403); so does a permission the table grants as
 * {@code recorded} that the workload never used (a grant the code no longer needs).
 */
@Tag("emulator")
class RbacUsageEndToEndTest {
    private static final Path TABLE = Path.of("../docs/security.md");

    @AutoClose
    private final ManagerOnLocalCluster env = new ManagerOnLocalCluster(
            LocalClusterConfig.defaults().withNodes(2).withNodeGpus(4).withNodeCpu("16").withNodeMemory("64Gi"));

    @Test
    void theManagerUsesExactlyThePermissionsTheDocumentedTableGrants() throws Exception {
        // Reclaim: queue a fills the 8 GPUs with two gangs; queue b, of a larger weight, takes one back.
        QueueFixtures.create(env.client(), "a", "{weight: 1, preemption: {reclaimDelay: 0s}}");
        QueueFixtures.create(env.client(), "b", "{weight: 3, preemption: {reclaimDelay: 0s}}");
        create(QueueFixtures.fourGpuGang(env.client(), "a-0", "a"));
        create(QueueFixtures.fourGpuGang(env.client(), "a-1", "a"));
        await().atMost(PATIENCE).until(() -> env.phase("a-0") == JobPhase.Running && env.phase("a-1") == JobPhase.Running);
        create(QueueFixtures.fourGpuGang(env.client(), "b-0", "b"));

        // A pod no node can take: the scheduler says so on the pod.
        env.client().pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("too-big").endMetadata()
                .withNewSpec().withSchedulerName("muster").addNewContainer().withName("main").withImage("busybox")
                .withNewResources().addToRequests("cpu", new Quantity("1000")).endResources().endContainer().endSpec()
                .build()).create();

        // The mpi example (svc, ssh and its own ConfigMap), deleted by its TTL once it completes.
        Job mpi = (Job) ManifestLoader.load(List.of(Path.of("../examples/mpi-allreduce.yaml"))).get(0).object();
        mpi.getSpec().setTtlSecondsAfterFinished(0);
        create(mpi);

        // A job whose claim the volumes plugin makes, of a WaitForFirstConsumer class, scaled while it runs.
        env.client().storage().v1().storageClasses().resource(new StorageClassBuilder().withNewMetadata().withName("late")
                .endMetadata().withProvisioner("local.muster.dev/none").withVolumeBindingMode("WaitForFirstConsumer")
                .build()).create();
        create(Serialization.unmarshal("""
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: scaled, namespace: default}
                spec:
                  plugins: {svc: []}
                  volumes:
                    - mountPath: /data
                      volumeClaim: {storageClassName: late, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
                  tasks:
                    - name: worker
                      replicas: 1
                      template:
                        metadata: {annotations: {local.muster.dev/run-seconds: "3600"}}
                        spec:
                          restartPolicy: Never
                          containers: [{name: main, image: busybox, resources: {requests: {cpu: "1"}}}]
                """, Job.class));
        await().atMost(PATIENCE).until(() -> env.phase("scaled") == JobPhase.Running);
        await().atMost(PATIENCE).ignoreException(KubernetesClientException.class).until(() -> {
            Job scaled = env.job("scaled");
            scaled.getSpec().getTasks().get(0).setReplicas(2);
            env.client().resource(scaled).update();
            return true;
        });

        // A job whose pod claims a GPU through DRA: the scheduler reads the claim and writes its status.
        GenericKubernetesResource template = Serialization.unmarshal("""
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaimTemplate
                metadata: {name: one-gpu, namespace: default}
                spec:
                  spec:
                    devices:
                      requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com, count: 1}}]
                """, GenericKubernetesResource.class);
        env.client().resource(template).create();
        create(Serialization.unmarshal("""
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: dra, namespace: default}
                spec:
                  tasks:
                    - name: worker
                      replicas: 1
                      template:
                        metadata: {annotations: {local.muster.dev/run-seconds: "3600"}}
                        spec:
                          restartPolicy: Never
                          resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
                          containers: [{name: main, image: busybox, resources: {requests: {cpu: "1"}, claims: [{name: gpu}]}}]
                """, Job.class));
        await().atMost(PATIENCE).until(() -> env.phase("dra") == JobPhase.Running);

        await().atMost(PATIENCE).until(() -> env.phase("b-0") == JobPhase.Running);
        await().atMost(PATIENCE).until(() -> env.job("allreduce") == null);
        await().atMost(PATIENCE).until(() -> env.client().pods().inNamespace("default").withName("scaled-worker-1").get() != null);
        await().atMost(PATIENCE).until(() -> env.client().pods().inNamespace("default").withName("too-big").get()
                .getStatus().getConditions().stream().anyMatch(c -> "PodScheduled".equals(c.getType())));

        Set<String> used = new TreeSet<>();
        env.cluster.apiRequests().snapshot().keySet().stream()
                .filter(kind -> kind.client().equals(ApiRequests.COMPONENTS))
                // Discovery (the scheduler asks whether ProvisioningRequests are served) needs no grant of the chart:
                // Kubernetes' system:discovery ClusterRole allows it to every authenticated user.
                .filter(kind -> !kind.resource().equals("(discovery)"))
                .forEach(kind -> used.add(kind.authorizedResource() + " " + kind.verb()));
        Map<String, String> granted = granted();
        assertThat(used).as("requests the documented RBAC does not grant").isSubsetOf(granted.keySet());
        Set<String> unused = granted.entrySet().stream().filter(e -> e.getValue().equals("recorded"))
                .map(Map.Entry::getKey).filter(permission -> !used.contains(permission))
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(unused).as("permissions the documented RBAC grants as recorded that the manager did not use").isEmpty();
    }

    private void create(Job job) {
        env.client().resource(job).create();
    }


    /**
     * The rows of the table of the section "RBAC" of docs/security.md, as {@code "resource verb"} to how they are
     * checked ({@code recorded}; {@code not a request: why}; {@code rare path: why}). The resources the manager
     * uses have one API group each, so the resource names the permission.
     */
    static Map<String, String> granted() throws IOException {
        // Read as the chart test reads it (RbacTable, in the helm module, which this module does not see).
        Map<String, String> granted = new TreeMap<>();
        boolean inRbac = false;
        for (String line : Files.readAllLines(TABLE)) {
            if (line.startsWith("## ")) {
                inRbac = line.equals("## RBAC");
            }
            if (!inRbac || !line.startsWith("| `")) {
                continue;
            }
            String[] cells = line.split("\\|");
            String resource = cells[3].strip().replace("`", "");
            String checked = cells[6].strip();
            for (String verb : cells[4].replace("`", "").split(",")) {
                granted.put(resource + " " + verb.strip(), checked.startsWith("recorded") ? "recorded" : checked);
            }
        }
        assertThat(granted).as("the RBAC table of " + TABLE).isNotEmpty();
        return granted;
    }
}
