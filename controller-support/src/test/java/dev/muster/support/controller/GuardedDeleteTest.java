package dev.muster.support.controller;

import dev.muster.api.batch.v1alpha1.Job;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The URL path a guarded delete is sent to, for the core group, a custom resource and a cluster-scoped kind. */
class GuardedDeleteTest {

    @Test
    void pathsFollowTheApiServersLayout() {
        Pod pod = new PodBuilder().withNewMetadata().withNamespace("team-a").withName("train-0").endMetadata().build();
        Job job = new Job();
        job.getMetadata().setNamespace("team-a");
        job.getMetadata().setName("train");
        Namespace namespace = new NamespaceBuilder().withNewMetadata().withName("team-a").endMetadata().build();

        assertThat(GuardedDelete.path(pod)).isEqualTo("/api/v1/namespaces/team-a/pods/train-0");
        assertThat(GuardedDelete.path(job)).isEqualTo("/apis/batch.muster.dev/v1alpha1/namespaces/team-a/jobs/train");
        assertThat(GuardedDelete.path(namespace)).isEqualTo("/api/v1/namespaces/team-a");
    }
}
