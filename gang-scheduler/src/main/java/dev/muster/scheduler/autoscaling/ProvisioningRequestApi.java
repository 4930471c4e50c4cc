package dev.muster.scheduler.autoscaling;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * Cluster Autoscaler's ProvisioningRequest API ({@code autoscaling.x-k8s.io/v1}), as Muster uses it. fabric8 7.4
 * has no model of it, and the few fields Muster writes and reads do not justify generating one: requests are
 * {@code GenericKubernetesResource}s built and read here.
 */
public final class ProvisioningRequestApi {
    /** The API group. */
    public static final String GROUP = "autoscaling.x-k8s.io";
    /** The served version. */
    public static final String VERSION = "v1";
    /** The resource's plural. */
    public static final String PLURAL = "provisioningrequests";
    /** The kind. */
    public static final String KIND = "ProvisioningRequest";
    /** Cluster Autoscaler's class that adds all of a request's nodes at once or none. */
    public static final String BEST_EFFORT_ATOMIC = "best-effort-atomic-scale-up.autoscaling.x-k8s.io";
    /** Cluster Autoscaler's class that only checks whether the capacity exists, adding no node. */
    public static final String CHECK_CAPACITY = "check-capacity.autoscaling.x-k8s.io";
    /**
     * On a Job or a Queue: the class of the requests made for its gangs (the Job's wins); without it, the
     * scheduler's default.
     */
    public static final String CLASS_SETTING_ANNOTATION = "scheduling.muster.dev/provisioning-class";
    /** On a request Muster made: the gang's attempt it is (1, 2, ...). */
    public static final String ATTEMPT_LABEL = "scheduling.muster.dev/provisioning-attempt";

    /** The resource, for fabric8's generic client. */
    public static final ResourceDefinitionContext CONTEXT = new ResourceDefinitionContext.Builder()
            .withGroup(GROUP).withVersion(VERSION).withPlural(PLURAL).withKind(KIND).withNamespaced(true).build();

    private ProvisioningRequestApi() {
    }
}
