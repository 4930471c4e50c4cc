package dev.muster.scheduler.autoscaling;

import dev.muster.scheduler.core.model.GroupKey;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Decides, per gang, the ProvisioningRequest it should have: one for each gang that its queue would admit now
 * but that does not fit the current nodes ({@link CapacityNeed}), none for any other gang.
 *
 * <ul>
 *   <li>A gang in need without a request gets its first one.</li>
 *   <li>A request {@code Failed} stays (so that the gang shows the autoscaler's words) until its backoff ends
 *       (the retry backoff, doubled for each earlier attempt, up to the maximum), then it is replaced by the
 *       gang's next attempt; {@code BookingExpired} and {@code CapacityRevoked} are replaced at once while the
 *       gang still needs capacity.</li>
 *   <li>A gang admitted (its pods being created) keeps its live request: its pods consume it (the autoscaler may
 *       write {@code Provisioned} after the nodes appear, and the gang is admitted as soon as they do). Every
 *       other request of a gang that no longer needs capacity (placed, deleted, suspended, finished, or held by
 *       its queue) is deleted, as is a failed or expired one of an admitted gang.</li>
 * </ul>
 *
 * <p>Stateless: everything it needs across cycles (attempts, when a request failed) is on the requests
 * themselves, so a restarted or newly elected scheduler decides the same. Pure and thread-safe.
 */
public final class ProvisioningDecisions {
    private final Duration retryBackoff;
    private final Duration maxRetryBackoff;

    /**
     * @param retryBackoff    how long after its first request fails a gang gets a new one; doubled per attempt
     * @param maxRetryBackoff the longest such wait
     */
    public ProvisioningDecisions(Duration retryBackoff, Duration maxRetryBackoff) {
        this.retryBackoff = Objects.requireNonNull(retryBackoff, "retryBackoff");
        this.maxRetryBackoff = Objects.requireNonNull(maxRetryBackoff, "maxRetryBackoff");
        if (retryBackoff.isNegative() || maxRetryBackoff.compareTo(retryBackoff) < 0) {
            throw new IllegalArgumentException("need 0 <= retryBackoff <= maxRetryBackoff: " + retryBackoff + ", "
                    + maxRetryBackoff);
        }
    }

    /** The name of a gang's {@code attempt}-th request: its PodGroup's name and the attempt. */
    public static String requestName(GroupKey gang, int attempt) {
        return gang.name() + "-" + attempt;
    }

    /**
     * Decides one cycle.
     *
     * @param needs    the gangs that wait for capacity only
     * @param admitted the gangs admitted whose pods are still to be placed
     * @param requests every request Muster made that exists (or is being created)
     * @param now      the cycle's time
     */
    public ProvisioningPlan decide(Collection<CapacityNeed> needs, Set<GroupKey> admitted,
                                   Collection<ObservedRequest> requests, Instant now) {
        Map<GroupKey, List<ObservedRequest>> byGang = new HashMap<>();
        for (ObservedRequest request : requests) {
            byGang.computeIfAbsent(request.gang(), g -> new ArrayList<>()).add(request);
        }
        byGang.values().forEach(list -> list.sort(Comparator.comparingInt(ObservedRequest::attempt)));
        List<WantedRequest> creates = new ArrayList<>();
        List<ObservedRequest> deletes = new ArrayList<>();
        Map<GroupKey, ProvisioningStatus> statuses = new HashMap<>();
        List<ObservedRequest> consumed = new ArrayList<>();
        for (CapacityNeed need : needs) {
            List<ObservedRequest> existing = byGang.remove(need.gang());
            if (existing == null) {
                WantedRequest wanted = wanted(need, 1);
                creates.add(wanted);
                statuses.put(need.gang(), status(wanted));
                continue;
            }
            ObservedRequest latest = existing.get(existing.size() - 1);
            deletes.addAll(existing.subList(0, existing.size() - 1));
            if (!latest.state().terminal()) {
                statuses.put(need.gang(), new ProvisioningStatus(need.gang().namespace(), latest.name(), latest.state(),
                        latest.message(), null));
                continue;
            }
            Instant retryAt = latest.state() == RequestState.FAILED && latest.since() != null
                    ? latest.since().plus(backoff(latest.attempt())) : now;
            if (now.isBefore(retryAt)) {
                statuses.put(need.gang(), new ProvisioningStatus(need.gang().namespace(), latest.name(), latest.state(),
                        latest.message(), retryAt));
                continue;
            }
            deletes.add(latest);
            WantedRequest wanted = wanted(need, latest.attempt() + 1);
            creates.add(wanted);
            statuses.put(need.gang(), status(wanted));
        }
        byGang.forEach((gang, existing) -> {
            ObservedRequest latest = existing.get(existing.size() - 1);
            for (ObservedRequest request : existing) {
                if (request == latest && admitted.contains(gang) && !request.state().terminal()) {
                    consumed.add(request);
                } else {
                    deletes.add(request);
                }
            }
        });
        return new ProvisioningPlan(creates, deletes, statuses, consumed);
    }

    /** How long after the {@code attempt}-th request failed the next is made. */
    Duration backoff(int attempt) {
        Duration backoff = retryBackoff;
        for (int i = 1; i < attempt && backoff.compareTo(maxRetryBackoff) < 0; i++) {
            backoff = backoff.multipliedBy(2);
        }
        return backoff.compareTo(maxRetryBackoff) > 0 ? maxRetryBackoff : backoff;
    }

    private static WantedRequest wanted(CapacityNeed need, int attempt) {
        return new WantedRequest(need, requestName(need.gang(), attempt), attempt);
    }

    private static ProvisioningStatus status(WantedRequest wanted) {
        return new ProvisioningStatus(wanted.gang().namespace(), wanted.name(), RequestState.PENDING, null, null);
    }
}
