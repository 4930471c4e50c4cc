package dev.muster.scheduler.autoscaling;

import dev.muster.scheduler.core.model.GroupKey;

import java.util.List;
import java.util.Map;

/**
 * What {@link ProvisioningDecisions} decided in one cycle.
 *
 * @param creates  requests to create
 * @param deletes  requests to delete, as seen (a delete is made on the version seen)
 * @param statuses per gang that waits for capacity, the request it waits for
 * @param consumed the requests of admitted gangs, whose pods, about to be created, consume their capacity
 */
public record ProvisioningPlan(List<WantedRequest> creates, List<ObservedRequest> deletes,
                               Map<GroupKey, ProvisioningStatus> statuses, List<ObservedRequest> consumed) {
    public ProvisioningPlan {
        creates = List.copyOf(creates);
        deletes = List.copyOf(deletes);
        statuses = Map.copyOf(statuses);
        consumed = List.copyOf(consumed);
    }
}
