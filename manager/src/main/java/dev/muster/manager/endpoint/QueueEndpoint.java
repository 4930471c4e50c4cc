package dev.muster.manager.endpoint;

import dev.muster.manager.security.NamespaceScope;
import dev.muster.scheduler.GangScheduler;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.stereotype.Component;

/**
 * {@code /actuator/queue}: the gangs the scheduler's latest cycle left waiting, in the order the next cycle
 * tries them, each with why it waits: the first place to look when a job does not start; and where each
 * Queue stands (allocation, fair share, demand, pending gangs).
 */
@Component
@Endpoint(id = "queue")
public class QueueEndpoint {
    private final GangScheduler scheduler;

    public QueueEndpoint(GangScheduler scheduler) {
        this.scheduler = scheduler;
    }

    /** {@code GET /actuator/queue}: the waiting gangs of the namespaces the viewer may see, and every Queue. */
    @ReadOperation
    public SchedulerQueue queue(SecurityContext viewer) {
        return queue(NamespaceScope.of(viewer.getPrincipal()));
    }

    /**
     * The queue as {@code scope} may see it: only its namespaces' waiting gangs. The Queues are cluster-scoped
     * and their amounts and gang counts are totals, shown to every viewer.
     */
    public SchedulerQueue queue(NamespaceScope scope) {
        return new SchedulerQueue(scheduler.isSynced(),
                scheduler.queue().stream().filter(gang -> scope.allows(gang.namespace())).toList(), scheduler.queues());
    }
}
