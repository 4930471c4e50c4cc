package dev.muster.support.autoscaling;

import io.fabric8.kubernetes.api.model.HasMetadata;

import java.util.Map;

/**
 * How a gang's pods consume the capacity a ProvisioningRequest provisioned for it. Cluster Autoscaler matches
 * pods to a request by two pod annotations; the gang scheduler, which watches the request, sets the request's
 * name and class on the gang's PodGroup once it is {@code Provisioned}, and the Job controller copies them onto
 * the pods it creates for the gang. The PodGroup carries them under Muster's own keys, so that nothing mistakes
 * the PodGroup for a pod that consumes the capacity.
 */
public final class ProvisioningConsumption {
    /** On a PodGroup: the provisioned request its pods consume. */
    public static final String REQUEST = "scheduling.muster.dev/provisioning-request";
    /** On a PodGroup: that request's class. */
    public static final String CLASS = "scheduling.muster.dev/provisioning-class-name";
    /** Cluster Autoscaler's pod annotation naming the request whose capacity the pod consumes. */
    public static final String POD_REQUEST = "autoscaling.x-k8s.io/consume-provisioning-request";
    /** Cluster Autoscaler's pod annotation naming that request's class. */
    public static final String POD_CLASS = "autoscaling.x-k8s.io/provisioning-class-name";

    private ProvisioningConsumption() {
    }

    /** The annotations the gang's pods get from its PodGroup: none unless it names a provisioned request. */
    public static Map<String, String> podAnnotations(HasMetadata podGroup) {
        Map<String, String> annotations = podGroup == null ? null : podGroup.getMetadata().getAnnotations();
        String request = annotations == null ? null : annotations.get(REQUEST);
        String provisioningClass = annotations == null ? null : annotations.get(CLASS);
        if (request == null || request.isBlank() || provisioningClass == null || provisioningClass.isBlank()) {
            return Map.of();
        }
        return Map.of(POD_REQUEST, request, POD_CLASS, provisioningClass);
    }
}
