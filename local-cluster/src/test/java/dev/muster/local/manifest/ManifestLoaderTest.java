package dev.muster.local.manifest;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.scheduling.v1alpha1.Queue;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class ManifestLoaderTest {
    @TempDir
    Path dir;

    private Path write(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content);
    }

    @Test
    void readsTheQuickstartExample() throws Exception {
        List<Manifest> manifests = ManifestLoader.load(List.of(Path.of("../examples/quickstart.yaml")));
        assertThat(manifests).hasSize(1);
        Job job = (Job) manifests.get(0).object();
        assertThat(job.getMetadata().getNamespace()).isEqualTo("default");
        assertThat(job.getSpec().getTasks()).extracting("name").containsExactly("master", "worker");
    }

    @Test
    void readsSeveralDocumentsAndSkipsEmptyOnes() throws Exception {
        Path file = write("mix.yaml", """
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: a, namespace: team}
                spec: {containers: [{name: c, image: busybox}]}
                ---
                ---
                apiVersion: scheduling.muster.dev/v1alpha1
                kind: PodGroup
                metadata: {name: g}
                spec: {minMember: 2}
                """);
        List<Manifest> manifests = ManifestLoader.load(List.of(file));
        assertThat(manifests).extracting(Manifest::describe).containsExactly("Pod team/a", "PodGroup default/g");
        assertThat(manifests.get(0).object()).isInstanceOf(Pod.class);
        assertThat(manifests).extracting(Manifest::document).containsExactly(1, 3);
    }

    @Test
    void readsDraKindsAsGenericObjectsWithTheNamespacedOnesDefaulted() throws Exception {
        Path file = write("dra.yaml", """
                apiVersion: resource.k8s.io/v1
                kind: DeviceClass
                metadata: {name: big-gpus}
                spec: {selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}]}
                ---
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaimTemplate
                metadata: {name: eight-gpus}
                spec: {spec: {devices: {requests: [{name: gpus, exactly: {deviceClassName: big-gpus, count: 8}}]}}}
                ---
                apiVersion: resource.k8s.io/v1
                kind: ResourceClaim
                metadata: {name: shared, namespace: team}
                spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: big-gpus}}]}}
                """);

        List<Manifest> manifests = ManifestLoader.load(List.of(file));

        assertThat(manifests).extracting(Manifest::describe).containsExactly("DeviceClass big-gpus",
                "ResourceClaimTemplate default/eight-gpus", "ResourceClaim team/shared");
        assertThat(manifests.get(1).object()).isInstanceOf(GenericKubernetesResource.class);
        assertThat(((GenericKubernetesResource) manifests.get(1).object()).<Integer>get("spec", "spec", "devices",
                "requests", 0, "exactly", "count")).isEqualTo(8);
    }

    @Test
    void readsTheQueuesExampleWithItsClusterScopedQueuesLeftWithoutNamespace() throws Exception {
        List<Manifest> manifests = ManifestLoader.load(List.of(Path.of("../examples/queues.yaml")));
        assertThat(manifests).extracting(Manifest::describe).startsWith("Queue team-a", "Queue team-b")
                .contains("Job default/a1", "Job default/b6").hasSize(16);
        Queue teamB = (Queue) manifests.get(1).object();
        assertThat(teamB.getSpec().getWeight()).isEqualTo(3);
        assertThat(((Job) manifests.get(2).object()).getSpec().getQueue()).isEqualTo("team-a");
    }

    @Test
    void reportsEveryProblemWithFileAndDocument() throws Exception {
        Path broken = write("broken.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: ok}
                spec: {containers: [{name: c, image: busybox}]}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: [unclosed
                """);
        Path kinds = write("kinds.yaml", """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: {name: vc}
                ---
                apiVersion: apps/v1
                kind: ReplicaSet
                metadata: {name: rs}
                ---
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {name: bad}
                spec: {tasks: []}
                ---
                - just
                - a list
                """);
        ManifestException e = catchThrowableOfType(ManifestException.class,
                () -> ManifestLoader.load(List.of(broken, kinds, dir.resolve("missing.yaml"))));
        assertThat(e.problems()).hasSize(6);
        assertThat(e.problems().get(0)).startsWith(broken + ": document 2: not valid YAML:").contains("line ");
        assertThat(e.problems().get(1)).isEqualTo(kinds + ": document 1: kind Job (apiVersion batch.volcano.sh/v1alpha1) "
                + "cannot be applied: run ./muster convert on the file to rewrite it as a Muster Job (it says what it changes)");
        assertThat(e.problems().get(2)).startsWith(kinds + ": document 2: kind ReplicaSet").contains("bare Pods");
        assertThat(e.problems().get(3)).isEqualTo(kinds + ": document 3: Job default/bad is invalid: "
                + "spec.tasks: must list at least one task");
        assertThat(e.problems().get(4)).startsWith(kinds + ": document 4: expected a Kubernetes object");
        assertThat(e.problems().get(5)).isEqualTo(dir.resolve("missing.yaml") + ": no such file");
    }

    @Test
    void refusesAnObjectDefinedTwice() throws Exception {
        String pod = """
                apiVersion: v1
                kind: Pod
                metadata: {name: twin}
                spec: {containers: [{name: c, image: busybox}]}
                """;
        Path a = write("a.yaml", pod);
        Path b = write("b.yaml", pod);
        ManifestException e = catchThrowableOfType(ManifestException.class, () -> ManifestLoader.load(List.of(a, b)));
        assertThat(e.problems()).containsExactly(b + ": document 1: Pod default/twin is defined more than once");
    }

    @Test
    void anObjectWithOnlyAGenerateNameIsReadEachTimeItAppearsAndOneWithNeitherIsRefused() throws Exception {
        String job = """
                apiVersion: batch.muster.dev/v1alpha1
                kind: Job
                metadata: {generateName: sweep-}
                spec: {tasks: [{name: w, template: {spec: {containers: [{name: c, image: busybox}]}}}]}
                """;
        Path a = write("a.yaml", job);
        Path b = write("b.yaml", job);
        Path nameless = write("nameless.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {labels: {app: x}}
                spec: {containers: [{name: c, image: busybox}]}
                """);

        assertThat(ManifestLoader.load(List.of(a, b))).extracting(Manifest::describe)
                .containsExactly("Job default/sweep-(generated)", "Job default/sweep-(generated)");
        assertThat(catchThrowableOfType(ManifestException.class, () -> ManifestLoader.load(List.of(nameless))).problems())
                .containsExactly(nameless + ": document 1: Pod needs metadata.name or metadata.generateName");
    }
}
