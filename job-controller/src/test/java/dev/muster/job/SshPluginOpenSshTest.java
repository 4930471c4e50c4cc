package dev.muster.job;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.rendering.plugin.SshPodPlugin;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretVolumeSource;
import io.fabric8.kubernetes.api.model.SecretVolumeSourceBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static dev.muster.job.JobPluginsTest.objects;
import static dev.muster.job.JobPluginsTest.pod;
import static dev.muster.job.JobPluginsTest.withPlugins;
import static dev.muster.job.Patience.PATIENCE;
import static dev.muster.job.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The ssh plugin checked against the real thing: the Secret it makes is laid out as the kubelet would lay it
 * out for the pod it renders ({@link KubeletSecretVolume}), and Debian's OpenSSH client logs in to Debian's
 * OpenSSH server ({@code StrictModes yes}, run as the current user on a loopback port) with nothing but those
 * files, without a prompt. Needs packages {@code openssh-client} and {@code openssh-server}; with
 * {@code CI=true} their absence fails the test.
 */
class SshPluginOpenSshTest {
    private static final Path SSHD = Path.of("/usr/sbin/sshd");
    private static final Path SSH = Path.of("/usr/bin/ssh");
    private static final Path SSH_KEYGEN = Path.of("/usr/bin/ssh-keygen");

    private static final boolean ROOT = "root".equals(System.getProperty("user.name"));

    private Path work;
    private final List<Process> servers = new ArrayList<>();

    @BeforeEach
    void needsOpenSsh() throws IOException {
        List<Path> missing = Stream.of(SSHD, SSH, SSH_KEYGEN).filter(p -> !Files.isExecutable(p)).toList();
        if (!missing.isEmpty() && "true".equalsIgnoreCase(System.getenv("CI"))) {
            fail("missing " + missing + " (Debian packages openssh-client, openssh-server); with CI=true the OpenSSH test must run");
        }
        assumeTrue(missing.isEmpty(), "missing " + missing + " (Debian packages openssh-client, openssh-server)");
        // StrictModes checks every directory above authorized_keys up to /, so the work directory is not under
        // the world-writable /tmp: Maven's target directory where the checkout's directories allow it (CI may
        // clone into a world-writable place), else, as root, a directory of its own under /run.
        Path target = Files.createDirectories(Path.of("target").toAbsolutePath());
        Path base = unsafeAncestor(target) == null ? target : ROOT ? Path.of("/run") : null;
        if (base == null || unsafeAncestor(base) != null) {
            Path unsafe = unsafeAncestor(target);
            fail(unsafe + " is " + PosixFilePermissions.toString(Files.getPosixFilePermissions(unsafe)) + ": sshd's "
                    + "StrictModes refuses any authorized_keys below a directory others can write to, so this test needs "
                    + "a checkout whose directories are not group- or world-writable, or to run as root");
        }
        work = Files.createTempDirectory(base, "muster-ssh-login-");
        // Open to others so that a non-root client can reach the files, as in a container.
        Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** The first of {@code dir} and its parents that others may write to, as StrictModes sees it; null if none. */
    private static Path unsafeAncestor(Path dir) throws IOException {
        for (Path at = dir; at != null; at = at.getParent()) {
            String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(at));
            if (mode.charAt(4) == 'w' || mode.charAt(7) == 'w') {
                return at;
            }
        }
        return null;
    }

    @AfterEach
    void stop() throws Exception {
        for (Process server : servers) {
            server.destroy();
            server.waitFor(10, TimeUnit.SECONDS);
        }
        if (work != null) {
            try (Stream<Path> files = Files.walk(work)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Test
    void aPodLogsInToItsPeersWithOnlyWhatTheSshPluginGivesIt() throws Exception {
        int port = freePort();
        Job job = withPlugins(TestJobs.job("hpc", task("master", 1, null), task("worker", 2, null)),
                Map.of("ssh", List.of("--ssh-port=" + port)));
        Secret secret = (Secret) objects(job).get("Secret/hpc-ssh");
        Pod pod = pod(job, "master", 0);
        Volume volume = pod.getSpec().getVolumes().stream().filter(v -> v.getName().equals(SshPodPlugin.VOLUME))
                .findFirst().orElseThrow();
        VolumeMount mount = pod.getSpec().getContainers().get(0).getVolumeMounts().stream()
                .filter(m -> m.getName().equals(SshPodPlugin.VOLUME)).findFirst().orElseThrow();

        Path dotSsh = layOut("rendered", secret, volume.getSecret(), mount);
        assertThat(mode(dotSsh)).isEqualTo("rwxr-xr-x");
        assertThat(mode(dotSsh.resolve("id_rsa"))).isEqualTo("rw-------");
        assertThat(mode(dotSsh.resolve("authorized_keys"))).isEqualTo("rw-------");

        Path server = startSshd(port, dotSsh.resolve("authorized_keys"));
        // Port and HostName come from the generated config; only the address the name resolves to is the
        // test's, as there is no DNS for the job's pods here.
        for (String alias : List.of("hpc-worker-1", "hpc-worker-1.hpc", "hpc-master-0")) {
            Result login = ssh(dotSsh, alias);
            assertThat(login.exit()).as("ssh %s:%n%s%nsshd:%n%s", alias, login.output(), Files.readString(server))
                    .isZero();
        }
    }

    @Test
    void sshdRefusesTheKeysWhenTheVolumeRootIsMountedAsBefore() throws Exception {
        // The control: what Muster rendered before (the whole volume mounted, no items, no subPath) leaves
        // authorized_keys in the kubelet's world-writable volume root, which StrictModes refuses.
        int port = freePort();
        Job job = withPlugins(TestJobs.job("old", task("worker", 1, null)), Map.of("ssh", List.of("--ssh-port=" + port)));
        Secret secret = (Secret) objects(job).get("Secret/old-ssh");
        Pod pod = pod(job, "worker", 0);
        SecretVolumeSource whole = new SecretVolumeSourceBuilder(pod.getSpec().getVolumes().stream()
                .filter(v -> v.getName().equals(SshPodPlugin.VOLUME)).findFirst().orElseThrow().getSecret())
                .withItems(List.of()).build();
        Path dotSsh = layOut("whole", secret, whole, new VolumeMountBuilder().withName(SshPodPlugin.VOLUME)
                .withMountPath(SshPodPlugin.DEFAULT_PATH).build());
        assertThat(mode(dotSsh)).isEqualTo("rwxrwxrwx");

        Path server = startSshd(port, dotSsh.resolve("authorized_keys"));
        Result login = ssh(dotSsh, "old-worker-0");
        assertThat(login.exit()).as(login.output()).isNotZero();
        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(Files.readString(server)).contains("bad ownership or modes for directory " + dotSsh));
    }

    @Test
    void aNonRootUserLogsInWithTheKeysMountedElsewhere() throws Exception {
        assumeTrue(ROOT, "needs root: the kubelet's files belong to root, and only root can make them so for a test");
        int port = freePort();
        Job job = withPlugins(TestJobs.job("mpi", task("worker", 2, null)),
                Map.of("ssh", List.of("--ssh-port=" + port, "--ssh-key-file-path=/home/mpiuser/.ssh")));
        Secret secret = (Secret) objects(job).get("Secret/mpi-ssh");
        Pod pod = pod(job, "worker", 0);
        SecretVolumeSource source = pod.getSpec().getVolumes().stream().filter(v -> v.getName().equals(SshPodPlugin.VOLUME))
                .findFirst().orElseThrow().getSecret();
        VolumeMount mount = pod.getSpec().getContainers().get(0).getVolumeMounts().stream()
                .filter(m -> m.getName().equals(SshPodPlugin.VOLUME)).findFirst().orElseThrow();
        Path dotSsh = layOut("nonroot", secret, source, mount);
        assertThat(mode(dotSsh.resolve("id_rsa"))).isEqualTo("rw-r--r--");
        Path server = startSshd(port, dotSsh.resolve("authorized_keys"));

        // The image's user (here nobody) runs ssh with root's files, to the peer's sshd (running as root).
        Result login = run(nobody(dotSsh, "mpi-worker-1"));
        assertThat(login.exit()).as("ssh:%n%s%nsshd:%n%s", login.output(), Files.readString(server)).isZero();

        // The control: with the files 0600, as under /root/.ssh, that user cannot read the key.
        Path rootOnly = layOut("rootonly", secret, new SecretVolumeSourceBuilder(source).withDefaultMode(SshPodPlugin.MODE).build(), mount);
        Result refused = run(nobody(rootOnly, "mpi-worker-1"));
        assertThat(refused.exit()).isNotZero();
        assertThat(refused.output()).contains("Permission denied");
    }

    private static List<String> nobody(Path dotSsh, String alias) {
        return List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "env", "HOME=/nonexistent",
                SSH.toString(), "-F", dotSsh.resolve("config").toString(), "-i", dotSsh.resolve("id_rsa").toString(),
                "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes", "-o", "HostName=127.0.0.1", "-l", "root", alias, "true");
    }

    /** The volume laid out by the kubelet and mounted in a container whose root is a fresh directory. */
    private Path layOut(String name, Secret secret, SecretVolumeSource source, VolumeMount mount) throws IOException {
        Path volume = work.resolve(name + "-volume");
        KubeletSecretVolume.lay(secret, source, volume);
        Path rootfs = Files.createDirectory(work.resolve(name + "-rootfs"));
        Files.setPosixFilePermissions(rootfs, PosixFilePermissions.fromString("rwxr-xr-x"));
        // An image's /root is 0700 and the ssh mounts sit under it.
        Path home = Files.createDirectory(rootfs.resolve("root"));
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
        return KubeletSecretVolume.mount(volume, mount, rootfs);
    }

    private Path startSshd(int port, Path authorizedKeys) throws Exception {
        Path hostKey = work.resolve("host-key-" + port);
        assertThat(run(List.of(SSH_KEYGEN.toString(), "-q", "-t", "ed25519", "-N", "", "-f", hostKey.toString())).exit()).isZero();
        Path config = work.resolve("sshd_config-" + port);
        Files.writeString(config, String.join("\n",
                "Port " + port,
                "ListenAddress 127.0.0.1",
                "HostKey " + hostKey,
                "PidFile none",
                "AuthorizedKeysFile " + authorizedKeys,
                "StrictModes yes",
                "UsePAM no",
                "PasswordAuthentication no",
                "KbdInteractiveAuthentication no",
                "PubkeyAuthentication yes",
                "PermitRootLogin prohibit-password",
                "LogLevel VERBOSE",
                ""));
        if (ROOT) {
            // Run as root, sshd wants its privilege-separation directory, which Debian's service unit makes
            // at start; it is not there when the service never ran (a container).
            Files.createDirectories(Path.of("/run/sshd"));
        }
        Path log = work.resolve("sshd-" + port + ".log");
        Process sshd = new ProcessBuilder(SSHD.toString(), "-D", "-e", "-f", config.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        servers.add(sshd);
        await().atMost(PATIENCE).until(() -> !sshd.isAlive() || accepts(port));
        assertThat(sshd.isAlive()).as("sshd exited: %s", Files.readString(log)).isTrue();
        return log;
    }

    private Result ssh(Path dotSsh, String alias) throws Exception {
        return run(List.of(SSH.toString(), "-F", dotSsh.resolve("config").toString(),
                "-i", dotSsh.resolve("id_rsa").toString(), "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes",
                "-o", "HostName=127.0.0.1", alias, "true"));
    }

    private record Result(int exit, String output) {
    }

    private Result run(List<String> command) throws Exception {
        Path out = Files.createTempFile(work, "out-", ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail(command + " did not finish in 60 s: " + Files.readString(out));
        }
        return new Result(process.exitValue(), Files.readString(out));
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }
}
