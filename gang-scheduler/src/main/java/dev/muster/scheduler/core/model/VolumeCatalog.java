package dev.muster.scheduler.core.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The claims, volumes and storage classes the scheduler knows, and what they make of a pod's volume
 * topology, as kube-scheduler's VolumeBinding filter decides it:
 *
 * <ul>
 *   <li>a claim bound to a volume: the volume's required node affinity;</li>
 *   <li>an unbound claim whose class binds {@code WaitForFirstConsumer}: the class's
 *       {@code allowedTopologies} (a new volume is provisioned where the pod goes; matching the claim to
 *       an existing unbound volume is not tried);</li>
 *   <li>an unbound claim that binds {@code Immediate} (or names no class): no node until it is bound;</li>
 *   <li>a claim, volume or class that does not exist: no node, naming it.</li>
 * </ul>
 *
 * <p>Not thread-safe; the owner serialises access.
 */
public final class VolumeCatalog {
    /** kube-scheduler's reason for a bound claim whose volume does not exist. */
    static final String VOLUME_NOT_FOUND = "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";

    private final Map<String, ClaimInfo> claims = new HashMap<>();
    private final Map<String, PersistentVolumeInfo> volumes = new HashMap<>();
    private final Map<String, StorageClassInfo> classes = new HashMap<>();

    /** @return whether anything the scheduler looks at changed */
    public boolean putClaim(ClaimInfo claim) {
        return !claim.equals(claims.put(claim.namespace() + "/" + claim.name(), claim));
    }

    /** @return whether the claim was known */
    public boolean removeClaim(String namespace, String name) {
        return claims.remove(namespace + "/" + name) != null;
    }

    /** @return whether anything the scheduler looks at changed */
    public boolean putVolume(PersistentVolumeInfo volume) {
        return !volume.equals(volumes.put(volume.name(), volume));
    }

    /** @return whether the volume was known */
    public boolean removeVolume(String name) {
        return volumes.remove(name) != null;
    }

    /** @return whether anything the scheduler looks at changed */
    public boolean putStorageClass(StorageClassInfo storageClass) {
        return !storageClass.equals(classes.put(storageClass.name(), storageClass));
    }

    /** @return whether the class was known */
    public boolean removeStorageClass(String name) {
        return classes.remove(name) != null;
    }

    /**
     * The topology of the volumes of a pod in the namespace that uses these claims; only volumes that
     * restrict its nodes, in the claims' order.
     */
    public List<VolumeTopology> topologiesOf(String namespace, List<String> claimNames) {
        List<VolumeTopology> topologies = new ArrayList<>(claimNames.size());
        for (String claimName : claimNames) {
            VolumeTopology topology = topologyOf(namespace, claimName);
            if (topology != null) {
                topologies.add(topology);
            }
        }
        return topologies;
    }

    /** The pod with its volumes' topology in its constraints; the pod itself if it uses no claim. */
    public PodInfo withVolumeTopology(PodInfo pod, List<String> claimNames) {
        if (claimNames.isEmpty()) {
            return pod;
        }
        return pod.withConstraints(pod.constraints().withVolumes(topologiesOf(pod.namespace(), claimNames)));
    }

    /**
     * Of these claims of a pod in the namespace, those a provisioner creates a volume for once told the
     * pod's node (kube-scheduler's PreBind writes it): unbound, with a {@code WaitForFirstConsumer} class.
     */
    public List<String> claimsToProvision(String namespace, List<String> claimNames) {
        List<String> toProvision = new ArrayList<>(0);
        for (String claimName : claimNames) {
            ClaimInfo claim = claims.get(namespace + "/" + claimName);
            StorageClassInfo storageClass = claim == null || claim.volumeName() != null
                    || claim.storageClassName() == null ? null : classes.get(claim.storageClassName());
            if (storageClass != null && storageClass.waitForFirstConsumer()) {
                toProvision.add(claimName);
            }
        }
        return toProvision;
    }

    private VolumeTopology topologyOf(String namespace, String claimName) {
        ClaimInfo claim = claims.get(namespace + "/" + claimName);
        if (claim == null) {
            return new VolumeTopology(List.of(), "persistentvolumeclaim \"" + claimName + "\" not found");
        }
        if (claim.volumeName() != null) {
            PersistentVolumeInfo volume = volumes.get(claim.volumeName());
            if (volume == null) {
                return new VolumeTopology(List.of(), VOLUME_NOT_FOUND);
            }
            return volume.nodeAffinity().isEmpty() ? null
                    : new VolumeTopology(volume.nodeAffinity(), VolumeTopology.NODE_CONFLICT);
        }
        StorageClassInfo storageClass = claim.storageClassName() == null ? null : classes.get(claim.storageClassName());
        if (claim.storageClassName() != null && storageClass == null) {
            return new VolumeTopology(List.of(),
                    "storageclass.storage.k8s.io \"" + claim.storageClassName() + "\" not found");
        }
        if (storageClass == null || !storageClass.waitForFirstConsumer()) {
            return new VolumeTopology(List.of(), "pod has unbound immediate PersistentVolumeClaims (" + claimName + ")");
        }
        return storageClass.allowedTopologies().isEmpty() ? null
                : new VolumeTopology(storageClass.allowedTopologies(), VolumeTopology.BIND_CONFLICT);
    }
}
