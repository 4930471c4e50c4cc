package dev.muster.support.controller;

import io.fabric8.kubernetes.client.KubernetesClientException;

import java.net.HttpURLConnection;

/**
 * What an API server's error answer means to a controller. A 409 is two different things: on a create with
 * reason {@code AlreadyExists}, the object is there (often created by our own earlier attempt whose answer was
 * lost); any other 409 is a lost optimistic-locking race, after which nothing was written and the decision must
 * be made again on fresher data. Taking the second for the first would leave an object uncreated for good.
 */
public final class ApiErrors {
    /** The status reason of a create whose object already exists. */
    public static final String ALREADY_EXISTS = "AlreadyExists";

    private ApiErrors() {
    }

    /** Whether the failure is a 409 of any reason: the request lost a race and wrote nothing. */
    public static boolean isConflict(Throwable failure) {
        return failure instanceof KubernetesClientException e && e.getCode() == HttpURLConnection.HTTP_CONFLICT;
    }

    /**
     * Whether the failure is a 404 naming the object {@code key} itself (its {@code details.name}): the object was
     * deleted while it was being reconciled, a race the informer's delete event settles. A 404 naming anything
     * else (a namespace that does not exist, a missing owner) is a real failure.
     */
    public static boolean deletedMeanwhile(Throwable failure, ObjectKey key) {
        return failure instanceof KubernetesClientException e && e.getCode() == HttpURLConnection.HTTP_NOT_FOUND
                && e.getStatus() != null && e.getStatus().getDetails() != null
                && key.name().equals(e.getStatus().getDetails().getName());
    }

    /** Whether a create failed because an object of that name exists. */
    public static boolean alreadyExists(KubernetesClientException failure) {
        return failure.getCode() == HttpURLConnection.HTTP_CONFLICT && failure.getStatus() != null
                && ALREADY_EXISTS.equals(failure.getStatus().getReason());
    }
}
