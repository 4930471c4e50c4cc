package dev.muster.job;

import dev.muster.api.batch.v1alpha1.Job;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;

import java.util.Optional;

/** The controller ownerReference that ties a job's pods and PodGroup to it. */
final class JobOwnership {
    private JobOwnership() {
    }

    /** The reference a job's children carry: deleting the job deletes them, after them if foreground. */
    static OwnerReference ownerReference(Job job) {
        return new OwnerReferenceBuilder()
                .withApiVersion(Job.API_VERSION)
                .withKind(Job.KIND)
                .withName(job.getMetadata().getName())
                .withUid(job.getMetadata().getUid())
                .withController(true)
                .withBlockOwnerDeletion(true)
                .build();
    }

    /** The name of the Job that controls the object, if a Job does. */
    static Optional<String> controllingJob(HasMetadata object) {
        return controllerRef(object).map(OwnerReference::getName);
    }

    /** Whether this very job (same uid, not an earlier one of the same name) controls the object. */
    static boolean isControlledBy(HasMetadata object, Job job) {
        return controllerRef(object).filter(ref -> ref.getUid() != null
                && ref.getUid().equals(job.getMetadata().getUid())).isPresent();
    }

    private static Optional<OwnerReference> controllerRef(HasMetadata object) {
        if (object.getMetadata().getOwnerReferences() == null) {
            return Optional.empty();
        }
        return object.getMetadata().getOwnerReferences().stream()
                .filter(ref -> Boolean.TRUE.equals(ref.getController()))
                .filter(ref -> Job.KIND.equals(ref.getKind()) && Job.API_VERSION.equals(ref.getApiVersion()))
                .findFirst();
    }
}
