package dev.muster.api.batch.v1alpha1.validation;

/**
 * One problem with an object (a Job, a Queue), located by field path.
 *
 * @param path    e.g. {@code spec.tasks[1].minAvailable}
 * @param message what is wrong, e.g. {@code must not exceed replicas (3)}
 */
public record FieldError(String path, String message) {
    @Override
    public String toString() {
        return path + ": " + message;
    }
}
