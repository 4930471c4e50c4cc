package dev.muster.manager.security;

import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewSpecBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.util.Optional;

/**
 * {@link Reviews} asked of the API server, as kube-rbac-proxy and controller-runtime's metrics filter do:
 * a TokenReview ({@code authentication.k8s.io/v1}) per token, a SubjectAccessReview
 * ({@code authorization.k8s.io/v1}) per question. The manager's ServiceAccount needs {@code create} on both.
 */
public final class ApiServerReviews implements Reviews {
    private final KubernetesClient client;

    public ApiServerReviews(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public Optional<Identity> authenticate(String token) {
        TokenReview review;
        try {
            review = client.authentication().v1().tokenReviews()
                    .create(new TokenReviewBuilder().withNewSpec().withToken(token).endSpec().build());
        } catch (KubernetesClientException e) {
            throw new ReviewUnavailableException("TokenReview failed: " + e.getCode(), e);
        }
        var status = review.getStatus();
        if (status == null || !Boolean.TRUE.equals(status.getAuthenticated()) || status.getUser() == null) {
            return Optional.empty();
        }
        return Optional.of(new Identity(status.getUser().getUsername(), status.getUser().getUid(),
                status.getUser().getGroups()));
    }

    @Override
    public boolean allowed(Identity identity, Access access) {
        SubjectAccessReviewSpecBuilder spec = new SubjectAccessReviewSpecBuilder().withUser(identity.user())
                .withUid(identity.uid().isEmpty() ? null : identity.uid()).withGroups(identity.groups());
        if (access.nonResource()) {
            spec.withNewNonResourceAttributes().withVerb(access.verb()).withPath(access.path()).endNonResourceAttributes();
        } else {
            spec.withNewResourceAttributes().withVerb(access.verb()).withGroup(Access.JOBS_GROUP)
                    .withResource(Access.JOBS_RESOURCE).withNamespace(access.namespace()).endResourceAttributes();
        }
        SubjectAccessReview review;
        try {
            review = client.authorization().v1().subjectAccessReview()
                    .create(new SubjectAccessReviewBuilder().withSpec(spec.build()).build());
        } catch (KubernetesClientException e) {
            throw new ReviewUnavailableException("SubjectAccessReview failed: " + e.getCode(), e);
        }
        return review.getStatus() != null && Boolean.TRUE.equals(review.getStatus().getAllowed());
    }
}
