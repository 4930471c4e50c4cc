package dev.muster.api.scheduling.v1alpha1;

/**
 * The CEL rules ({@code x-kubernetes-validations}) of the generated Queue CRD. Comparing quantities (a
 * guarantee against a limit) needs Kubernetes' quantity library, which not every API server Muster runs
 * against offers, and rules across queues cannot be written in CEL at all: {@link QueueTreeValidator} checks
 * both.
 */
final class QueueCelRules {
    static final String NOT_OWN_PARENT = "!has(self.spec) || !has(self.spec.parent) || self.spec.parent != self.metadata.name";
    static final String NOT_OWN_PARENT_MESSAGE = "spec.parent: a queue cannot be its own parent";

    private QueueCelRules() {
    }
}
