package dev.muster.scheduler.autoscaling;

import java.util.Locale;

/**
 * How the scheduler makes a cluster autoscaler see a gang that its queue would admit now but that does not fit
 * the current nodes ({@code muster.scheduler.autoscaling}).
 */
public enum AutoscalingMode {
    /**
     * {@link #PROVISIONING_REQUEST} when the API server serves ProvisioningRequests, else {@link #PENDING_PODS} when
     * it serves Karpenter's NodePools, else {@link #OFF}: on a cluster without any autoscaler pending pods would only
     * undo admission before pods, so there (and for a Cluster Autoscaler without ProvisioningRequests, which leaves
     * no trace in the API) they are asked for by name.
     */
    AUTO,
    /** One ProvisioningRequest per such gang, for its quorum, all at once or not at all. */
    PROVISIONING_REQUEST,
    /** The gang's pods are created and left pending, unschedulable, for autoscalers that watch pending pods. */
    PENDING_PODS,
    /** Neither: such a gang waits for capacity to appear by other means. */
    OFF;

    /** The setting's spelling, e.g. {@code provisioning-request}. */
    public String setting() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
