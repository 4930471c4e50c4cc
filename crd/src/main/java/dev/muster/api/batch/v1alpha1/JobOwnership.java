package dev.muster.api.batch.v1alpha1;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;

import java.util.Optional;

/**
 * The controller ownerReference that ties a job's pods, PodGroup and plugin objects to it, and the one rule
 * for which Job owns an object: its controller reference (at most one per object, as the API server
 * enforces), of kind Job in {@value Job#API_VERSION}. A non-controller reference to a Job owns nothing.
 */
public final class JobOwnership {
    private JobOwnership() {
    }

    /** The reference a job's children carry: deleting the job deletes them, after them if foreground. */
    public static OwnerReference ownerReference(Job job) {
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
    public static Optional<String> controllingJob(HasMetadata object) {
        return controllerRef(object).map(OwnerReference::getName);
    }

    /** The uid of the Job that controls the object, if a Job does. */
    public static Optional<String> controllingJobUid(HasMetadata object) {
        return controllerRef(object).map(OwnerReference::getUid);
    }

    /** Whether this very job (same uid, not an earlier one of the same name) controls the object. */
    public static boolean isControlledBy(HasMetadata object, Job job) {
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
