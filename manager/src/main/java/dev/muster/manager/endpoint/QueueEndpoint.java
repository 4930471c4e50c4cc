package dev.muster.manager.endpoint;

import dev.muster.scheduler.GangScheduler;
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

    /** {@code GET /actuator/queue}. */
    @ReadOperation
    public SchedulerQueue queue() {
        return new SchedulerQueue(scheduler.isSynced(), scheduler.queue(), scheduler.queues());
    }
}
