package dev.muster.api.scheduling.v1alpha1;

/** PodGroups for tests, shared through this module's test jar so that each test module builds them one way. */
public final class PodGroupFixtures {
    private PodGroupFixtures() {
    }

    /** A PodGroup of that name and {@code minMember}, the rest of its spec at its defaults, for the caller to add to. */
    public static PodGroup podGroup(String namespace, String name, int minMember) {
        PodGroup podGroup = new PodGroup();
        podGroup.getMetadata().setNamespace(namespace);
        podGroup.getMetadata().setName(name);
        podGroup.getSpec().setMinMember(minMember);
        return podGroup;
    }
}
