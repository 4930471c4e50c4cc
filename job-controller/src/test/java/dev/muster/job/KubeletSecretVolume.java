package dev.muster.job;

import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.KeyToPathBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretVolumeSource;
import io.fabric8.kubernetes.api.model.VolumeMount;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A Secret volume laid out on disk as the kubelet lays it out, and a container's mount of it, for tests that
 * hand the files to real programs. The kubelet (pkg/volume/secret over an emptyDir, pkg/volume/util's
 * AtomicWriter) makes the volume's root 0777, writes the payload into a timestamped directory (0755) with
 * its sub-directories 0755 and each file with its item's mode, else the volume's {@code defaultMode}, else
 * 0644; points {@code ..data} at it and each top-level name at {@code ..data/<name>}. A mount with a
 * subPath bind-mounts the directory the subPath resolves to; without one, the volume's root. A bind mount
 * shows the source's own inode, so here it is a copy that keeps the modes (a symlink would let the real
 * path, which ssh checks, lead back through the volume's root).
 */
final class KubeletSecretVolume {
    private static final String PAYLOAD = "..2026_01_01_00_00_00.000000001";

    private KubeletSecretVolume() {
    }

    /** Writes {@code secret} as the volume {@code source} into the empty directory {@code root}. */
    static void lay(Secret secret, SecretVolumeSource source, Path root) throws IOException {
        Files.createDirectories(root);
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path payload = Files.createDirectory(root.resolve(PAYLOAD));
        Files.setPosixFilePermissions(payload, PosixFilePermissions.fromString("rwxr-xr-x"));
        int defaultMode = source.getDefaultMode() == null ? 0644 : source.getDefaultMode();
        List<KeyToPath> items = source.getItems() == null || source.getItems().isEmpty()
                ? secret.getData().keySet().stream().map(k -> new KeyToPathBuilder().withKey(k).withPath(k).build()).toList()
                : source.getItems();
        for (KeyToPath item : items) {
            Path file = payload.resolve(item.getPath());
            for (Path dir = file.getParent(); !dir.equals(payload); dir = dir.getParent()) {
                Files.createDirectories(dir);
                Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
            }
            Files.write(file, Base64.getDecoder().decode(secret.getData().get(item.getKey())));
            Files.setPosixFilePermissions(file, permissions(item.getMode() == null ? defaultMode : item.getMode()));
        }
        Files.createSymbolicLink(root.resolve("..data"), Path.of(PAYLOAD));
        try (Stream<Path> top = Files.list(payload)) {
            for (Path name : top.toList()) {
                Files.createSymbolicLink(root.resolve(name.getFileName()), Path.of("..data").resolve(name.getFileName()));
            }
        }
    }

    /** Makes {@code mount} of the volume laid out at {@code root} appear under {@code containerRoot}; returns where. */
    static Path mount(Path root, VolumeMount mount, Path containerRoot) throws IOException {
        Path source = (mount.getSubPath() == null || mount.getSubPath().isEmpty() ? root : root.resolve(mount.getSubPath()))
                .toRealPath();
        Path target = containerRoot.resolve(mount.getMountPath().substring(1));
        Files.createDirectories(target.getParent());
        copy(source, target);
        return target;
    }

    private static void copy(Path source, Path target) throws IOException {
        if (Files.isDirectory(source)) {
            Files.createDirectory(target);
            try (Stream<Path> children = Files.list(source)) {
                for (Path child : children.toList()) {
                    copy(child.toRealPath(), target.resolve(child.getFileName()));
                }
            }
        } else {
            Files.copy(source, target);
        }
        Files.setPosixFilePermissions(target, Files.getPosixFilePermissions(source));
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        StringBuilder text = new StringBuilder();
        String letters = "rwx";
        for (int bit = 8; bit >= 0; bit--) {
            text.append((mode & (1 << bit)) != 0 ? letters.charAt(2 - bit % 3) : '-');
        }
        return PosixFilePermissions.fromString(text.toString());
    }
}
