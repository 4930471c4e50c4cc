package dev.muster.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPolicies;
import dev.muster.api.batch.v1alpha1.TaskSpec;
import dev.muster.api.batch.v1alpha1.validation.FieldError;
import dev.muster.job.plugin.JobPlugins;
import dev.muster.rendering.JobPodRenderer;
import dev.muster.rendering.plugin.SshKeyFormats;
import dev.muster.api.batch.v1alpha1.VolumeSpec;
import dev.muster.job.plugin.PluginObject;
import dev.muster.job.plugin.SshKeyPair;
import dev.muster.job.plugin.VolumesPlugin;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimSpecBuilder;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeProjection;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import org.bouncycastle.crypto.params.RSAKeyParameters;
import org.bouncycastle.crypto.util.OpenSSHPublicKeyUtil;
import org.bouncycastle.util.io.pem.PemReader;
import org.bouncycastle.asn1.pkcs.RSAPrivateKey;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** What each plugin adds to a job's pods and which objects it wants: pure functions of the job. */
class JobPluginsTest {
    private static final JobPlugins PLUGINS = JobPlugins.BUILT_IN;

    static Job withPlugins(Job job, Map<String, List<String>> plugins) {
        job.getSpec().setPlugins(new LinkedHashMap<>(plugins));
        return job;
    }

    static Job ddp() {
        return withPlugins(TestJobs.job("ddp", task("master", 1, null), task("worker", 3, null)),
                Map.of("pytorch", List.of("--master=master", "--worker=worker", "--port=29500")));
    }

    static Pod pod(Job job, String task, int index) {
        TaskSpec spec = job.getSpec().getTasks().stream().filter(t -> t.getName().equals(task)).findFirst().orElseThrow();
        return JobPodRenderer.pod(job, spec, index, 0);
    }

    static Map<String, String> env(Container container) {
        return container.getEnv() == null ? Map.of() : container.getEnv().stream()
                .collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue, (a, b) -> a, LinkedHashMap::new));
    }

    static Map<String, String> env(Pod pod) {
        return env(pod.getSpec().getContainers().get(0));
    }

    static Map<String, String> mounts(Container container) {
        return container.getVolumeMounts().stream().collect(Collectors.toMap(VolumeMount::getMountPath, VolumeMount::getName));
    }

    static Map<String, HasMetadata> objects(Job job) {
        Map<String, HasMetadata> objects = new LinkedHashMap<>();
        for (PluginObject object : PLUGINS.onJobCreate(job)) {
            objects.put(object.reference(), object.build().get());
        }
        return objects;
    }

    @Test
    void registryKnowsExactlyThePluginsTheApiAccepts() {
        assertThat(PLUGINS.names()).containsExactlyInAnyOrderElementsOf(JobPolicies.PLUGINS);
    }

    @Test
    void pytorchGivesEveryPodItsRankTheWorldSizeAndTheMasterAddress() {
        Job job = ddp();
        Pod worker2 = pod(job, "worker", 2);
        assertThat(env(worker2)).containsAllEntriesOf(Map.of("MASTER_ADDR", "ddp-master-0.ddp", "MASTER_PORT", "29500",
                "WORLD_SIZE", "4", "RANK", "3"));
        assertThat(env(pod(job, "master", 0))).containsEntry("RANK", "0").containsEntry("WORLD_SIZE", "4");
        assertThat(env(pod(job, "worker", 0))).containsEntry("RANK", "1");
        assertThat(worker2.getSpec().getContainers().get(0).getPorts()).singleElement().satisfies(port -> {
            assertThat(port.getContainerPort()).isEqualTo(29500);
            assertThat(port.getName()).isEqualTo("pytorchjob-port");
        });
        // pytorch implies svc: the names above resolve.
        assertThat(worker2.getSpec().getHostname()).isEqualTo("ddp-worker-2");
        assertThat(worker2.getSpec().getSubdomain()).isEqualTo("ddp");
        assertThat(objects(job)).containsOnlyKeys("Service/ddp", "ConfigMap/ddp-svc", "NetworkPolicy/ddp");
    }

    @Test
    void pytorchDefaultsItsPortAndLeavesOtherTasksAlone() {
        Job job = withPlugins(TestJobs.job("pt", task("master", 1, null), task("worker", 2, null), task("logger", 1, null)),
                Map.of("pytorch", List.of()));
        assertThat(env(pod(job, "worker", 1))).containsEntry("MASTER_PORT", "23456").containsEntry("RANK", "2")
                .containsEntry("WORLD_SIZE", "3");
        assertThat(env(pod(job, "logger", 0))).doesNotContainKeys("RANK", "MASTER_ADDR", "WORLD_SIZE")
                .containsKey("MUSTER_MASTER_HOSTS");
    }

    @Test
    void svcNamesEveryPodAndListsEveryTasksHosts() {
        Job job = withPlugins(TestJobs.job("mesh", task("ps-node", 2, null), task("worker", 2, null)),
                Map.of("svc", List.of("--publish-not-ready-addresses")));
        Pod pod = pod(job, "worker", 1);
        assertThat(pod.getSpec().getHostname()).isEqualTo("mesh-worker-1");
        assertThat(pod.getSpec().getSubdomain()).isEqualTo("mesh");
        assertThat(env(pod)).containsAllEntriesOf(Map.of(
                "MUSTER_PS_NODE_HOSTS", "mesh-ps-node-0.mesh,mesh-ps-node-1.mesh", "MUSTER_PS_NODE_NUM", "2",
                "MUSTER_WORKER_HOSTS", "mesh-worker-0.mesh,mesh-worker-1.mesh", "MUSTER_WORKER_NUM", "2",
                "VC_PS_NODE_HOSTS", "mesh-ps-node-0.mesh,mesh-ps-node-1.mesh", "VC_WORKER_NUM", "2"));
        Container main = pod.getSpec().getContainers().get(0);
        assertThat(mounts(main)).containsEntry("/etc/muster", "muster-svc").containsEntry("/etc/volcano", "muster-svc");
        assertThat(main.getVolumeMounts()).allSatisfy(m -> assertThat(m.getReadOnly()).isTrue());
        Volume volume = pod.getSpec().getVolumes().stream().filter(v -> v.getName().equals("muster-svc")).findFirst().orElseThrow();
        assertThat(volume.getProjected().getSources()).extracting(s -> s.getConfigMap().getName()).containsExactly("mesh-svc");

        Map<String, HasMetadata> objects = objects(job);
        Service service = (Service) objects.get("Service/mesh");
        assertThat(service.getSpec().getClusterIP()).isEqualTo("None");
        assertThat(service.getSpec().getSelector()).isEqualTo(Map.of("batch.muster.dev/job-name", "mesh"));
        assertThat(service.getSpec().getPublishNotReadyAddresses()).isTrue();
        // Volcano's names too: its host file of task ps-node is ps_node.host, and its variables are keys.
        assertThat(((ConfigMap) objects.get("ConfigMap/mesh-svc")).getData()).isEqualTo(Map.of(
                "ps-node.host", "mesh-ps-node-0.mesh\nmesh-ps-node-1.mesh", "ps_node.host", "mesh-ps-node-0.mesh\nmesh-ps-node-1.mesh",
                "worker.host", "mesh-worker-0.mesh\nmesh-worker-1.mesh",
                "VC_PS_NODE_HOSTS", "mesh-ps-node-0.mesh,mesh-ps-node-1.mesh", "VC_PS_NODE_NUM", "2",
                "VC_WORKER_HOSTS", "mesh-worker-0.mesh,mesh-worker-1.mesh", "VC_WORKER_NUM", "2"));
        NetworkPolicy policy = (NetworkPolicy) objects.get("NetworkPolicy/mesh");
        assertThat(policy.getSpec().getPodSelector().getMatchLabels()).isEqualTo(Map.of("batch.muster.dev/job-name", "mesh"));
        assertThat(policy.getSpec().getIngress()).singleElement().satisfies(rule -> assertThat(rule.getFrom()).singleElement()
                .satisfies(peer -> assertThat(peer.getPodSelector().getMatchLabels()).isEqualTo(Map.of("batch.muster.dev/job-name", "mesh"))));
    }

    @Test
    void svcWithoutNetworkPolicyWhenDisabled() {
        Job job = withPlugins(TestJobs.job("open", task("worker", 2, null)), Map.of("svc", List.of("--disable-network-policy")));
        assertThat(objects(job)).containsOnlyKeys("Service/open", "ConfigMap/open-svc");
        assertThat(((Service) objects(job).get("Service/open")).getSpec().getPublishNotReadyAddresses()).isFalse();
    }

    @Test
    void svcLeavesTheHostsOutOfTheEnvironmentWhenAsked() {
        Job job = withPlugins(TestJobs.job("big", task("worker", 2, null)), Map.of("svc", List.of("--inject-hosts-env=false")));
        job.getSpec().getTasks().get(0).getTemplate().getSpec()
                .setInitContainers(new ArrayList<>(List.of(new ContainerBuilder().withName("init").withImage("busybox").build())));
        Pod pod = pod(job, "worker", 0);
        assertThat(env(pod)).doesNotContainKeys("MUSTER_WORKER_HOSTS", "MUSTER_WORKER_NUM", "VC_WORKER_HOSTS", "VC_WORKER_NUM");
        assertThat(env(pod.getSpec().getInitContainers().get(0))).doesNotContainKey("VC_WORKER_HOSTS");
        // The files and the ConfigMap's keys stay.
        assertThat(mounts(pod.getSpec().getContainers().get(0))).containsKeys("/etc/muster", "/etc/volcano");
        assertThat(((ConfigMap) objects(job).get("ConfigMap/big-svc")).getData()).containsEntry("VC_WORKER_NUM", "2");
        // The default, as Volcano's, is on; given alone or =true, it is on too.
        for (List<String> on : List.of(List.<String>of(), List.of("--inject-hosts-env"), List.of("--inject-hosts-env=true"))) {
            Job with = withPlugins(TestJobs.job("big", task("worker", 2, null)), Map.of("svc", on));
            assertThat(env(pod(with, "worker", 0))).as("%s", on).containsEntry("VC_WORKER_HOSTS", "big-worker-0.big,big-worker-1.big");
        }
    }

    @Test
    void hostListsFollowTheReplicas() {
        Job job = withPlugins(TestJobs.job("grow", task("worker", 2, null)), Map.of("svc", List.of()));
        job.getSpec().getTasks().get(0).setReplicas(3);
        assertThat(((ConfigMap) objects(job).get("ConfigMap/grow-svc")).getData())
                .containsEntry("worker.host", "grow-worker-0.grow\ngrow-worker-1.grow\ngrow-worker-2.grow");
        assertThat(PLUGINS.onJobCreate(job)).filteredOn(o -> o.type() == ConfigMap.class).allMatch(PluginObject::synced);
    }

    @Test
    void envGivesEveryContainerAndInitContainerTheTaskIndex() {
        Job job = withPlugins(TestJobs.job("idx", task("worker", 3, null)), Map.of("env", List.of()));
        job.getSpec().getTasks().get(0).getTemplate().getSpec()
                .setInitContainers(new ArrayList<>(List.of(new ContainerBuilder().withName("init").withImage("busybox").build())));
        Pod pod = pod(job, "worker", 2);
        Map<String, String> expected = Map.of("MUSTER_TASK_INDEX", "2", "VC_TASK_INDEX", "2", "VK_TASK_INDEX", "2");
        assertThat(env(pod.getSpec().getInitContainers().get(0))).isEqualTo(expected);
        assertThat(env(pod)).isEqualTo(expected);
        assertThat(pod.getSpec().getHostname()).as("env alone does not imply svc").isNull();
        assertThat(objects(job)).isEmpty();
    }

    @Test
    void aVariableTheTemplateSetsIsKept() {
        Job job = ddp();
        job.getSpec().getTasks().get(1).getTemplate().getSpec().getContainers().get(0)
                .setEnv(new ArrayList<>(List.of(new EnvVar("MASTER_PORT", "1234", null))));
        assertThat(env(pod(job, "worker", 0))).containsEntry("MASTER_PORT", "1234");
    }

    @Test
    void pytorchWorkersWaitForTheMasterWhenAsked() {
        Job job = withPlugins(TestJobs.job("wm", task("master", 1, null), task("worker", 2, null)), Map.of("pytorch",
                List.of("--port=29500", "--wait-master-enabled", "--wait-master-timeout=60", "--wait-master-image=busybox:1.37")));
        assertThat(PLUGINS.validate(job)).isEmpty();
        Pod worker = pod(job, "worker", 1);
        assertThat(worker.getSpec().getInitContainers()).singleElement().satisfies(init -> {
            assertThat(init.getName()).isEqualTo("wait-for-master");
            assertThat(init.getImage()).isEqualTo("busybox:1.37");
            assertThat(init.getCommand()).hasSize(3).startsWith("sh", "-c");
            assertThat(init.getCommand().get(2)).contains("nc -z -w 2 wm-master-0.wm 29500", "+ 60 ))");
            assertThat(init.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
            assertThat(init.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
            assertThat(init.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
            assertThat(init.getSecurityContext().getRunAsUser()).as("the pod's user, none fixed").isNull();
            assertThat(init.getResources().getLimits()).isEqualTo(init.getResources().getRequests())
                    .containsOnlyKeys("cpu", "memory");
        });
        assertThat(pod(job, "master", 0).getSpec().getInitContainers()).as("the master does not wait for itself").isNullOrEmpty();

        Job defaults = withPlugins(TestJobs.job("wd", task("master", 1, null), task("worker", 1, null)),
                Map.of("pytorch", List.of("--wait-master-enabled=true")));
        assertThat(pod(defaults, "worker", 0).getSpec().getInitContainers()).singleElement().satisfies(init -> {
            assertThat(init.getImage()).isEqualTo("busybox:1.36.1");
            assertThat(init.getCommand().get(2)).contains("wd-master-0.wd 23456", "+ 300 ))");
        });
        defaults.getSpec().getTasks().get(1).getTemplate().getSpec().getContainers().get(0).setSecurityContext(
                new SecurityContextBuilder().withRunAsNonRoot(true).withRunAsUser(1000L).withPrivileged(true).build());
        assertThat(pod(defaults, "worker", 0).getSpec().getInitContainers()).singleElement().satisfies(init -> {
            assertThat(init.getSecurityContext().getRunAsNonRoot()).as("runs as the task's container runs").isTrue();
            assertThat(init.getSecurityContext().getRunAsUser()).isEqualTo(1000L);
            assertThat(init.getSecurityContext().getPrivileged()).as("but asks for no privilege").isNull();
        });
        // Off by default, as in Volcano; an init container of that name in the template is kept as it is.
        assertThat(pod(withPlugins(TestJobs.job("off", task("master", 1, null), task("worker", 1, null)),
                Map.of("pytorch", List.of())), "worker", 0).getSpec().getInitContainers()).isNullOrEmpty();
        defaults.getSpec().getTasks().get(1).getTemplate().getSpec().setInitContainers(new ArrayList<>(List.of(
                new ContainerBuilder().withName("wait-for-master").withImage("mine").build())));
        assertThat(pod(defaults, "worker", 0).getSpec().getInitContainers()).extracting(Container::getImage).containsExactly("mine");
    }

    @Test
    void pytorchWaitMasterArgumentsAreChecked() {
        Job job = withPlugins(TestJobs.job("wb", task("master", 1, null), task("worker", 1, null)), Map.of("pytorch",
                List.of("--wait-master-enabled=yes", "--wait-master-timeout=soon", "--wait-master-image=")));
        assertThat(PLUGINS.validate(job)).extracting(FieldError::toString).containsExactlyInAnyOrder(
                "spec.plugins.pytorch: argument --wait-master-enabled is a switch; its value must be true or false",
                "spec.plugins.pytorch: argument --wait-master-timeout must be a whole number of seconds, was 'soon'",
                "spec.plugins.pytorch: argument --wait-master-image must name an image");
    }

    @Test
    void sshMountsAFreshKeyPairAndAConfigNamingEveryPod() throws Exception {
        Job job = withPlugins(TestJobs.job("hpc", task("master", 1, null), task("worker", 2, null)), Map.of("ssh", List.of()));
        Secret secret = (Secret) objects(job).get("Secret/hpc-ssh");
        Map<String, String> data = decoded(secret);
        assertThat(data).containsOnlyKeys("id_rsa", "id_rsa.pub", "authorized_keys", "config");
        assertThat(SshKeyPair.generate()).hasToString("SshKeyPair[redacted]");
        assertThat(data.get("authorized_keys")).isEqualTo(data.get("id_rsa.pub")).startsWith("ssh-rsa ");
        assertThat(data.get("config")).isEqualTo("""
                StrictHostKeyChecking no
                UserKnownHostsFile /dev/null
                Host hpc-master-0 hpc-master-0.hpc
                  HostName hpc-master-0.hpc
                  Port 22
                Host hpc-worker-0 hpc-worker-0.hpc
                  HostName hpc-worker-0.hpc
                  Port 22
                Host hpc-worker-1 hpc-worker-1.hpc
                  HostName hpc-worker-1.hpc
                  Port 22
                """);

        // The public key line and the PEM private key are one pair.
        RSAKeyParameters pub = (RSAKeyParameters) OpenSSHPublicKeyUtil.parsePublicKey(
                Base64.getDecoder().decode(data.get("id_rsa.pub").substring("ssh-rsa ".length())));
        assertThat(data.get("id_rsa")).startsWith("-----BEGIN RSA PRIVATE KEY-----");
        byte[] pkcs1 = new PemReader(new StringReader(data.get("id_rsa"))).readPemObject().getContent();
        BigInteger modulus = RSAPrivateKey.getInstance(pkcs1).getModulus();
        assertThat(modulus).isEqualTo(pub.getModulus());
        assertThat(modulus.bitLength()).isEqualTo(3072);

        Container main = pod(job, "worker", 0).getSpec().getContainers().get(0);
        assertThat(mounts(main)).containsEntry("/root/.ssh", "muster-ssh");
        Volume volume = pod(job, "worker", 0).getSpec().getVolumes().stream()
                .filter(v -> v.getName().equals("muster-ssh")).findFirst().orElseThrow();
        assertThat(volume.getSecret().getSecretName()).isEqualTo("hpc-ssh");
        assertThat(volume.getSecret().getDefaultMode()).isEqualTo(0600);
        // As Volcano: the keys go into a directory of the volume, and that directory is mounted, not the
        // volume's root, which the kubelet makes world-writable (OpenSSH's StrictModes refuses it).
        assertThat(volume.getSecret().getItems()).extracting(KeyToPath::getKey, KeyToPath::getPath).containsExactly(
                tuple("id_rsa", ".ssh/id_rsa"), tuple("id_rsa.pub", ".ssh/id_rsa.pub"),
                tuple("authorized_keys", ".ssh/authorized_keys"), tuple("config", ".ssh/config"));
        assertThat(main.getVolumeMounts()).filteredOn(m -> m.getName().equals("muster-ssh")).singleElement()
                .satisfies(m -> {
                    assertThat(m.getSubPath()).isEqualTo(".ssh");
                    assertThat(m.getReadOnly()).isTrue();
                });
        assertThat(PLUGINS.onJobCreate(job)).filteredOn(o -> o.type() == Secret.class).noneMatch(PluginObject::synced);
    }

    @Test
    void sshTakesAGivenKeyPairAndPath() {
        SshKeyPair pair = SshKeyPair.generate();
        // As Go's flag package reads it, a valued argument takes the next one even when it starts with '-'.
        Job job = withPlugins(TestJobs.job("given", task("worker", 1, null)), Map.of("ssh",
                List.of("--ssh-key-file-path=/home/mpi/.ssh", "--ssh-private-key", pair.privateKey(),
                        "--ssh-public-key=" + pair.publicKey() + " mpi@cluster")));
        assertThat(PLUGINS.validate(job)).isEmpty();
        Map<String, String> data = decoded((Secret) objects(job).get("Secret/given-ssh"));
        assertThat(data).containsEntry("id_rsa", pair.privateKey())
                .containsEntry("authorized_keys", pair.publicKey() + " mpi@cluster");
        assertThat(mounts(pod(job, "worker", 0).getSpec().getContainers().get(0))).containsEntry("/home/mpi/.ssh", "muster-ssh");
        // Files the kubelet writes as root must be readable by the image's own user there.
        assertThat(pod(job, "worker", 0).getSpec().getVolumes()).filteredOn(v -> v.getName().equals("muster-ssh"))
                .singleElement().satisfies(v -> assertThat(v.getSecret().getDefaultMode()).isEqualTo(0644));
    }

    @Test
    void sshConfigNamesEveryHostOnceWithTheGivenPort() {
        Job job = withPlugins(TestJobs.job("sp", task("launcher", 1, null), task("node", 2, null)),
                Map.of("ssh", List.of("--ssh-port=2222")));
        job.getSpec().getTasks().get(0).getTemplate().getSpec().setHostname("head");
        job.getSpec().getTasks().get(0).getTemplate().getSpec().setSubdomain("cluster");
        String config = decoded((Secret) objects(job).get("Secret/sp-ssh")).get("config");
        assertThat(config).startsWith("StrictHostKeyChecking no\nUserKnownHostsFile /dev/null\nHost head head.cluster\n"
                + "  HostName head.cluster\n  Port 2222\n").contains("Host sp-node-1 sp-node-1.sp\n  HostName sp-node-1.sp\n  Port 2222\n");
        assertThat(config.lines().filter(l -> l.startsWith("Host ")).count()).isEqualTo(3);
    }

    @Test
    void mpiGivesTheMasterTheWorkersAndAHostfileWithSlots() {
        Job job = withPlugins(TestJobs.job("mpi", task("launcher", 1, null), task("node", 3, null)),
                Map.of("mpi", List.of("--master=launcher", "--worker=node", "--port=2222")));
        job.getSpec().getTasks().get(1).getTemplate().getSpec().getContainers().get(0).setResources(
                new ResourceRequirementsBuilder()
                        .withLimits(Map.of("nvidia.com/gpu", new Quantity("2"))).withRequests(Map.of("cpu", new Quantity("8"))).build());
        Pod master = pod(job, "launcher", 0);
        assertThat(env(master)).containsEntry("MPI_HOST", "mpi-node-0.mpi,mpi-node-1.mpi,mpi-node-2.mpi");
        assertThat(env(pod(job, "node", 0))).doesNotContainKey("MPI_HOST");
        assertThat(pod(job, "node", 0).getSpec().getContainers().get(0).getPorts())
                .extracting(p -> p.getContainerPort()).containsExactly(2222);
        Volume etc = master.getSpec().getVolumes().stream().filter(v -> v.getName().equals("muster-svc")).findFirst().orElseThrow();
        assertThat(etc.getProjected().getSources()).extracting(VolumeProjection::getConfigMap)
                .extracting(c -> c.getName()).containsExactly("mpi-svc", "mpi-mpi");
        assertThat(mounts(master.getSpec().getContainers().get(0))).containsKeys("/etc/muster", "/root/.ssh");

        Map<String, HasMetadata> objects = objects(job);
        assertThat(objects).containsOnlyKeys("Service/mpi", "ConfigMap/mpi-svc", "NetworkPolicy/mpi", "Secret/mpi-ssh", "ConfigMap/mpi-mpi");
        assertThat(((ConfigMap) objects.get("ConfigMap/mpi-mpi")).getData())
                .containsEntry("hostfile", "mpi-node-0.mpi slots=2\nmpi-node-1.mpi slots=2\nmpi-node-2.mpi slots=2\n");
    }

    @Test
    void mpiSlotsAreWholeCpusWithoutGpus() {
        Job job = withPlugins(TestJobs.job("cpu", task("master", 1, null), task("worker", 1, null)), Map.of("mpi", List.of()));
        job.getSpec().getTasks().get(1).getTemplate().getSpec().getContainers().get(0).setResources(
                new ResourceRequirementsBuilder().withRequests(Map.of("cpu", new Quantity("3500m"))).build());
        assertThat(((ConfigMap) objects(job).get("ConfigMap/cpu-mpi")).getData()).containsEntry("hostfile", "cpu-worker-0.cpu slots=3\n");
    }

    @Test
    void tensorflowConfigListsEveryRoleAndThePodsOwnTask() throws Exception {
        Job job = withPlugins(TestJobs.job("tf", task("ps", 2, null), task("worker", 3, null), task("chief", 1, null)),
                Map.of("tensorflow", List.of("--port=3333")));
        JsonNode config = new ObjectMapper().readTree(env(pod(job, "worker", 1)).get("TF_CONFIG"));
        assertThat(config.path("cluster").path("worker")).extracting(JsonNode::asText)
                .containsExactly("tf-worker-0.tf:3333", "tf-worker-1.tf:3333", "tf-worker-2.tf:3333");
        assertThat(config.path("cluster").path("ps")).extracting(JsonNode::asText).containsExactly("tf-ps-0.tf:3333", "tf-ps-1.tf:3333");
        assertThat(config.path("cluster").path("chief")).extracting(JsonNode::asText).containsExactly("tf-chief-0.tf:3333");
        assertThat(config.path("cluster").has("evaluator")).isFalse();
        assertThat(config.path("task").path("type").asText()).isEqualTo("worker");
        assertThat(config.path("task").path("index").asInt()).isEqualTo(1);
        assertThat(new ObjectMapper().readTree(env(pod(job, "ps", 1)).get("TF_CONFIG")).path("task").path("type").asText()).isEqualTo("ps");
        assertThat(pod(job, "ps", 0).getSpec().getSubdomain()).isEqualTo("tf");
    }

    @Test
    void tensorflowRolesMayBeOtherTasks() throws Exception {
        Job job = withPlugins(TestJobs.job("tfr", task("params", 1, null), task("trainer", 2, null)),
                Map.of("tensorflow", List.of("--ps=params", "--worker=trainer")));
        assertThat(PLUGINS.validate(job)).isEmpty();
        JsonNode config = new ObjectMapper().readTree(env(pod(job, "trainer", 0)).get("TF_CONFIG"));
        assertThat(config.path("cluster").path("ps")).extracting(JsonNode::asText).containsExactly("tfr-params-0.tfr:2222");
        assertThat(config.path("task").path("type").asText()).isEqualTo("worker");
    }

    @Test
    void badArgumentsAreRefusedNamingThePluginAndTheArgument() {
        Job job = withPlugins(TestJobs.job("bad", task("master", 1, null), task("worker", 2, null)), Map.of(
                "pytorch", List.of("--master=chief", "--foo=1", "--port=99999"),
                "svc", List.of("--publish-not-ready-addresses=maybe"),
                "ssh", List.of("--ssh-private-key=x", "--ssh-port=0"),
                "tensorflow", List.of("--worker")));
        assertThat(PLUGINS.validate(job)).extracting(FieldError::toString).containsExactlyInAnyOrder(
                "spec.plugins.pytorch: unknown argument --foo; known: --master, --port, --wait-master-enabled, "
                        + "--wait-master-image, --wait-master-timeout, --worker",
                "spec.plugins.pytorch: argument --master names task 'chief', which the job does not have; its tasks are master, worker",
                "spec.plugins.pytorch: argument --port must be a port number from 1 to 65535, was '99999'",
                "spec.plugins.svc: argument --publish-not-ready-addresses is a switch; its value must be true or false",
                "spec.plugins.ssh: arguments --ssh-private-key and --ssh-public-key must be given together",
                "spec.plugins.ssh: argument --ssh-port must be a port number from 1 to 65535, was '0'",
                "spec.plugins.ssh: argument --ssh-private-key is not one PEM private key (-----BEGIN ... PRIVATE KEY----- "
                        + "to -----END ... PRIVATE KEY-----); its value is not shown",
                "spec.plugins.tensorflow: argument --worker needs a value");
    }

    /** The keys OpenSSH's own ssh-keygen writes pass the check, in both the new and the PEM format. */
    @Test
    void keysMadeBySshKeygenAreAccepted(@TempDir Path dir) throws Exception {
        boolean installed = Files.isExecutable(Path.of("/usr/bin/ssh-keygen"));
        if (!installed) {
            assertThat(System.getenv("CI")).as("ssh-keygen (Debian openssh-client) is required with CI=true").isNotEqualTo("true");
            Assumptions.abort("ssh-keygen is not installed (Debian openssh-client)");
        }
        for (List<String> kind : List.of(List.of("-t", "ed25519"), List.of("-t", "rsa", "-b", "2048", "-m", "PEM"),
                List.of("-t", "ecdsa"))) {
            Path file = dir.resolve("id_" + kind.get(1) + kind.size());
            List<String> command = new ArrayList<>(List.of("/usr/bin/ssh-keygen", "-q", "-N", "", "-C", "me@host", "-f", file.toString()));
            command.addAll(kind);
            Process keygen = new ProcessBuilder(command).redirectErrorStream(true).start();
            assertThat(keygen.waitFor()).as(String.join(" ", command)).isZero();
            String privateKey = Files.readString(file);
            String publicKey = Files.readString(Path.of(file + ".pub"));
            assertThat(SshKeyFormats.isPrivateKey(privateKey)).as(kind.toString()).isTrue();
            assertThat(SshKeyFormats.isPublicKey(publicKey)).as(kind.toString()).isTrue();
            assertThat(SshKeyFormats.isPrivateKey(publicKey)).isFalse();
            assertThat(SshKeyFormats.isPublicKey(privateKey)).isFalse();
        }
    }

    /**
     * A key given wrongly is still a key: whatever the mistake, the errors (which go to the Job's status, an
     * Event, the log and the dashboard) name the argument and repeat no part of its value.
     */
    @Test
    void aMalformedKeyArgumentIsNamedAndNeverEchoed() {
        SshKeyPair pair = SshKeyPair.generate();
        String key = pair.privateKey();
        String body = key.lines().filter(line -> !line.startsWith("-----")).collect(Collectors.joining());
        Map<List<String>, String> mistakes = new LinkedHashMap<>();
        mistakes.put(List.of("--ssh-private-key=" + body, "--ssh-public-key=" + pair.publicKey()),
                "spec.plugins.ssh: argument --ssh-private-key is not one PEM private key (-----BEGIN ... PRIVATE KEY----- "
                        + "to -----END ... PRIVATE KEY-----); its value is not shown");
        mistakes.put(List.of("--ssh-private-key=" + key, "--ssh-public-key=" + body),
                "spec.plugins.ssh: argument --ssh-public-key is not one authorized_keys line (<type> <base64 key> "
                        + "[comment]); its value is not shown");
        mistakes.put(List.of("ssh-private-key=" + key),
                "spec.plugins.ssh: argument 1 (not shown, as it may hold a secret) is not of the form --name=value");
        mistakes.put(List.of("--ssh-privat-key=" + key),
                "spec.plugins.ssh: unknown argument --ssh-privat-key; known: --ssh-key-file-path, --ssh-port, "
                        + "--ssh-private-key, --ssh-public-key");
        mistakes.put(List.of("--ssh-key-file-path=/root/.ssh", key),
                "spec.plugins.ssh: argument 2 (not shown, as it may hold a secret) is not a known argument; known: "
                        + "--ssh-key-file-path, --ssh-port, --ssh-private-key, --ssh-public-key");
        mistakes.put(List.of("--" + body),
                "spec.plugins.ssh: argument 1 (not shown, as it may hold a secret) is not a known argument; known: "
                        + "--ssh-key-file-path, --ssh-port, --ssh-private-key, --ssh-public-key");
        mistakes.forEach((args, expected) -> {
            Job job = withPlugins(TestJobs.job("leaky", task("worker", 1, null)), Map.of("ssh", args));
            List<String> errors = PLUGINS.validate(job).stream().map(FieldError::toString).toList();
            assertThat(errors).as(expected).contains(expected);
            for (String error : errors) {
                for (String line : key.lines().toList()) {
                    assertThat(error).doesNotContain(line.substring(Math.min(line.length(), 5)));
                }
                assertThat(error).doesNotContain(body.substring(0, 16));
            }
        });
    }

    @Test
    void aDefaultMasterMustExistButADefaultRoleNeedNot() {
        Job job = withPlugins(TestJobs.job("nomaster", task("worker", 2, null)), Map.of("pytorch", List.of(), "tensorflow", List.of()));
        assertThat(PLUGINS.validate(job)).extracting(FieldError::toString).containsExactly(
                "spec.plugins.pytorch: argument --master names task 'master' (the default), which the job does not have; its tasks are worker");
    }

    @Test
    void volcanoSpellingsOfArgumentsAreAccepted() {
        Job job = withPlugins(TestJobs.job("v", task("master", 1, null), task("worker", 2, null)), Map.of(
                "pytorch", List.of("-master=master", "--worker", "worker", "--port=29500"),
                "svc", List.of("--disable-network-policy=true")));
        assertThat(PLUGINS.validate(job)).isEmpty();
        assertThat(env(pod(job, "worker", 1))).containsEntry("MASTER_PORT", "29500");
        assertThat(objects(job)).doesNotContainKey("NetworkPolicy/v");
    }

    @Test
    void everyArgumentVolcanosPluginsTakeIsAcceptedAndAnyOtherRefusedNamingTheKnownOnes() {
        // Each plugin's flags as Volcano's plugins declare them (flag.NewFlagSet in pkg/controllers/job/plugins).
        Map<String, List<String>> volcano = new LinkedHashMap<>();
        volcano.put("svc", List.of("--publish-not-ready-addresses=1", "--disable-network-policy=F", "--inject-hosts-env=TRUE"));
        SshKeyPair keys = SshKeyPair.generate();
        volcano.put("ssh", List.of("--ssh-key-file-path=/home/u/.ssh", "--ssh-private-key=" + keys.privateKey(),
                "--ssh-public-key=" + keys.publicKey(), "--ssh-port=2222"));
        volcano.put("env", List.of());
        volcano.put("mpi", List.of("--master=master", "--worker=worker", "--port=22"));
        volcano.put("pytorch", List.of("--master=master", "--worker=worker", "--port=23456", "--wait-master-enabled=t",
                "--wait-master-timeout=300", "--wait-master-image=busybox:1.36.1"));
        volcano.put("tensorflow", List.of("--ps=master", "--worker=worker", "--chief=master", "--evaluator=worker", "--port=2222"));
        Job job = withPlugins(TestJobs.job("all", task("master", 1, null), task("worker", 2, null)), volcano);
        assertThat(PLUGINS.validate(job)).isEmpty();
        assertThat(env(pod(job, "worker", 0))).containsKey("VC_WORKER_HOSTS");
        // Go's spellings of a bool: 1 is true, F false.
        assertThat(((Service) objects(job).get("Service/all")).getSpec().getPublishNotReadyAddresses()).isTrue();
        assertThat(objects(job)).containsKey("NetworkPolicy/all");

        Map<String, List<String>> bogus = new LinkedHashMap<>();
        volcano.keySet().forEach(name -> bogus.put(name, List.of("--bogus")));
        assertThat(PLUGINS.validate(withPlugins(TestJobs.job("unk", task("master", 1, null), task("worker", 1, null)), bogus)))
                .extracting(FieldError::toString).containsExactlyInAnyOrder(
                        "spec.plugins.svc: unknown argument --bogus; known: --disable-network-policy, --inject-hosts-env, --publish-not-ready-addresses",
                        "spec.plugins.ssh: unknown argument --bogus; known: --ssh-key-file-path, --ssh-port, --ssh-private-key, --ssh-public-key",
                        "spec.plugins.env: unknown argument --bogus; known: none",
                        "spec.plugins.mpi: unknown argument --bogus; known: --master, --port, --worker",
                        "spec.plugins.pytorch: unknown argument --bogus; known: --master, --port, --wait-master-enabled, "
                                + "--wait-master-image, --wait-master-timeout, --worker",
                        "spec.plugins.tensorflow: unknown argument --bogus; known: --chief, --evaluator, --port, --ps, --worker");
    }

    @Test
    void everyArgumentVolcanosRayPluginTakesIsAcceptedInItsSpellingAndAnyOtherRefused() {
        // Volcano's flag.NewFlagSet of the ray plugin: camel-case names.
        Job job = withPlugins(TestJobs.job("all", task("master", 1, null), task("worker", 2, null)), Map.of("ray",
                List.of("--head=master", "--headContainer=main", "-worker=worker", "--workerContainer", "main",
                        "--port=6379", "--dashboardPort=8265", "--clientPort=10001")));
        assertThat(PLUGINS.validate(job)).isEmpty();
        assertThat(pod(job, "worker", 0).getSpec().getContainers().get(0).getCommand())
                .containsExactly("sh", "-c", "ray start --block --address=all-master-0.all:6379");

        assertThat(PLUGINS.validate(withPlugins(rayCluster(), Map.of("ray", List.of("--dashboard-port=1")))))
                .extracting(FieldError::toString).containsExactly("spec.plugins.ray: unknown argument --dashboard-port; "
                        + "known: --clientPort, --dashboardPort, --head, --headContainer, --port, --worker, --workerContainer");
    }

    static Job rayCluster() {
        Job job = TestJobs.job("rc", task("head", 1, null), task("worker", 2, null));
        for (TaskSpec task : job.getSpec().getTasks()) {
            task.getTemplate().getSpec().getContainers().get(0).setName(task.getName());
        }
        return withPlugins(job, Map.of("ray", List.of()));
    }

    @Test
    void rayStartsTheHeadOnItsPortsAndTheWorkersAgainstItBehindAHeadService() {
        // As Volcano's ray plugin (pkg/controllers/job/plugins/distributed-framework/ray/ray.go): containers
        // "head" and "worker" by default, GCS 6379, dashboard 8265, client server 10001, Service <job>-head-svc.
        Job job = rayCluster();
        assertThat(PLUGINS.validate(job)).isEmpty();
        Container head = pod(job, "head", 0).getSpec().getContainers().get(0);
        assertThat(head.getCommand()).containsExactly("sh", "-c", "ray start --head --block --dashboard-host=0.0.0.0 "
                + "--port=6379 --dashboard-port=8265 --ray-client-server-port=10001");
        assertThat(head.getPorts()).extracting(p -> p.getName(), p -> p.getContainerPort())
                .containsExactly(tuple("gcs", 6379), tuple("dashboard", 8265), tuple("client-server", 10001));
        Pod worker = pod(job, "worker", 1);
        assertThat(worker.getSpec().getContainers().get(0).getCommand())
                .containsExactly("sh", "-c", "ray start --block --address=rc-head-0.rc:6379");
        assertThat(worker.getSpec().getContainers().get(0).getPorts()).isNullOrEmpty();
        // ray implies svc, as Volcano's job webhook adds it: the head's name resolves.
        assertThat(worker.getSpec().getSubdomain()).isEqualTo("rc");

        Service service = (Service) objects(job).get("Service/rc-head-svc");
        assertThat(service.getSpec().getClusterIP()).isNull();
        assertThat(service.getSpec().getSelector()).isEqualTo(Map.of(
                "batch.muster.dev/job-name", "rc", "batch.muster.dev/task-name", "head"));
        assertThat(service.getSpec().getPorts()).extracting(p -> p.getName(), p -> p.getPort(), p -> p.getTargetPort().getIntVal())
                .containsExactly(tuple("gcs", 6379, 6379), tuple("dashboard", 8265, 8265), tuple("client-server", 10001, 10001));
        assertThat(PLUGINS.controlledResources(job)).containsEntry("Service/rc-head-svc", "ray");
    }

    @Test
    void rayTakesOtherTasksContainersAndPortsAndKeepsACommandTheTemplateGives() {
        Job job = TestJobs.job("rc", task("driver", 1, null), task("node", 2, null));
        job.getSpec().getTasks().get(0).getTemplate().getSpec().getContainers().get(0).setPorts(List.of(
                new ContainerPortBuilder().withName("redis").withContainerPort(7000).build()));
        job.getSpec().getTasks().get(1).getTemplate().getSpec().getContainers().get(0).setCommand(List.of("my-start"));
        withPlugins(job, Map.of("ray", List.of("--head=driver", "--headContainer=main", "--worker=node",
                "--workerContainer=main", "--port=7000", "--dashboardPort=9000", "--clientPort=9001")));
        assertThat(PLUGINS.validate(job)).isEmpty();
        Container head = pod(job, "driver", 0).getSpec().getContainers().get(0);
        assertThat(head.getCommand()).containsExactly("sh", "-c", "ray start --head --block --dashboard-host=0.0.0.0 "
                + "--port=7000 --dashboard-port=9000 --ray-client-server-port=9001");
        // A port the container declares already is kept under its own name.
        assertThat(head.getPorts()).extracting(p -> p.getName(), p -> p.getContainerPort())
                .containsExactly(tuple("redis", 7000), tuple("dashboard", 9000), tuple("client-server", 9001));
        assertThat(pod(job, "node", 0).getSpec().getContainers().get(0).getCommand()).containsExactly("my-start");
        assertThat(((Service) objects(job).get("Service/rc-head-svc")).getSpec().getSelector())
                .containsEntry("batch.muster.dev/task-name", "driver");
    }

    @Test
    void rayNeedsItsHeadTaskAndTheContainersItIsToldOf() {
        Job noHead = withPlugins(TestJobs.job("rc", task("worker", 2, null)), Map.of("ray", List.of()));
        assertThat(PLUGINS.validate(noHead)).extracting(FieldError::toString).containsExactly(
                "spec.plugins.ray: argument --head names task 'head' (the default), which the job does not have; its tasks are worker");
        Job job = withPlugins(rayCluster(), Map.of("ray", List.of("--headContainer=ray", "--port=0")));
        assertThat(PLUGINS.validate(job)).extracting(FieldError::toString).containsExactlyInAnyOrder(
                "spec.plugins.ray: argument --port must be a port number from 1 to 65535, was '0'",
                "spec.plugins.ray: argument --headContainer names container 'ray', which task 'head' does not have; "
                        + "its containers are head");
        // Default container names that the template lacks: left alone, as Volcano does.
        Job otherNames = withPlugins(TestJobs.job("rc", task("head", 1, null)), Map.of("ray", List.of()));
        assertThat(PLUGINS.validate(otherNames)).isEmpty();
        assertThat(pod(otherNames, "head", 0).getSpec().getContainers().get(0).getCommand()).isNullOrEmpty();
    }

    @Test
    void controlledResourcesNameEveryObjectAndItsPlugin() {
        assertThat(PLUGINS.controlledResources(ddp())).isEqualTo(Map.of(
                "ConfigMap/ddp-svc", "svc", "NetworkPolicy/ddp", "svc", "Service/ddp", "svc"));
        assertThat(PLUGINS.controlledResources(TestJobs.quickstart())).isEmpty();
    }

    @Test
    void aJobWithoutPluginsGetsPlainPods() {
        Job job = TestJobs.quickstart();
        Pod pod = pod(job, "worker", 1);
        assertThat(pod.getSpec().getHostname()).isNull();
        assertThat(pod.getSpec().getContainers().get(0).getEnv()).isNullOrEmpty();
        assertThat(pod.getSpec().getVolumes()).isNullOrEmpty();
    }

    /** Adds volume /data on existing claim {@code datasets} and /scratch on a claim of 10Gi the job makes. */
    static Job withVolumes(Job job) {
        VolumeSpec named = new VolumeSpec();
        named.setMountPath("/data");
        named.setVolumeClaimName("datasets");
        VolumeSpec made = new VolumeSpec();
        made.setMountPath("/scratch");
        made.setVolumeClaim(new PersistentVolumeClaimSpecBuilder().withAccessModes("ReadWriteOnce")
                .withNewResources().addToRequests("storage", new Quantity("10Gi")).endResources().build());
        job.getSpec().setVolumes(List.of(named, made));
        return job;
    }

    @Test
    void volumesAreMountedInEveryContainerAndAClaimSpecBecomesTheJobsClaim() {
        Job job = withVolumes(TestJobs.job("vol", task("worker", 2, null)));
        job.getSpec().getTasks().get(0).getTemplate().getSpec().getContainers()
                .add(new ContainerBuilder().withName("sidecar").withImage("busybox").build());
        Pod pod = pod(job, "worker", 1);
        assertThat(pod.getSpec().getVolumes()).extracting(Volume::getName, v -> v.getPersistentVolumeClaim().getClaimName())
                .containsExactly(tuple("muster-volume-0", "datasets"), tuple("muster-volume-1", "vol-volume-1"));
        assertThat(pod.getSpec().getContainers()).hasSize(2).allSatisfy(c -> {
            assertThat(mounts(c)).isEqualTo(Map.of("/data", "muster-volume-0", "/scratch", "muster-volume-1"));
            assertThat(c.getVolumeMounts()).allSatisfy(m -> assertThat(m.getReadOnly()).isFalse());
        });

        Map<String, HasMetadata> objects = objects(job);
        assertThat(objects).containsOnlyKeys("PersistentVolumeClaim/vol-volume-1");
        PersistentVolumeClaim claim = (PersistentVolumeClaim) objects.get("PersistentVolumeClaim/vol-volume-1");
        assertThat(claim.getSpec().getAccessModes()).containsExactly("ReadWriteOnce");
        assertThat(claim.getSpec().getResources().getRequests()).containsEntry("storage", new Quantity("10Gi"));
        assertThat(PLUGINS.controlledResources(job)).isEqualTo(Map.of("PersistentVolumeClaim/vol-volume-1", "volumes"));
    }

    @Test
    void aMissingNamedClaimIsNamedWithItsField() {
        Job job = withVolumes(TestJobs.job("vol", task("worker", 1, null)));
        assertThat(VolumesPlugin.missingClaims(job, name -> false))
                .containsExactly("PersistentVolumeClaim datasets (spec.volumes[0].volumeClaimName)");
        assertThat(VolumesPlugin.missingClaims(job, "datasets"::equals)).isEmpty();
    }

    static Map<String, String> decoded(Secret secret) {
        Map<String, String> data = new LinkedHashMap<>();
        secret.getData().forEach((k, v) -> data.put(k, new String(Base64.getDecoder().decode(v), StandardCharsets.UTF_8)));
        return data;
    }
}
