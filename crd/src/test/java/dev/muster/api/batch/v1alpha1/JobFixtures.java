package dev.muster.api.batch.v1alpha1;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;

import java.util.ArrayList;
import java.util.Arrays;

/** Jobs for tests, shared through this module's test jar so that each test module builds them one way. */
public final class JobFixtures {
    private JobFixtures() {
    }

    /** A Job of the given tasks (a {@code null} one kept, as a malformed spec has it), with the uid {@code uid-<name>}. */
    public static Job job(String namespace, String name, TaskSpec... tasks) {
        Job job = new Job();
        job.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).withUid("uid-" + name).build());
        JobSpec spec = new JobSpec();
        spec.setTasks(new ArrayList<>(Arrays.asList(tasks)));
        job.setSpec(spec);
        return job;
    }
}
