package dev.muster.scheduler.core.model;

import java.util.Objects;

/**
 * A pod that counts toward its gang without waiting to be placed: bound to a node and not leaving, or finished
 * with success. Read by the sub-groups of a gang ({@link SubGroupRule}), which count their members and hold the
 * rest of a sub-group to the domain its bound members are in.
 *
 * @param pod      the pod
 * @param nodeName its node while it is bound; {@code null} once it succeeded
 */
public record GangMember(PodInfo pod, String nodeName) {
    public GangMember {
        Objects.requireNonNull(pod, "pod");
    }
}
