package dev.muster.manager.wiring;

import dev.muster.job.JobController;
import dev.muster.podgroup.PodGroupController;
import dev.muster.scheduler.GangScheduler;
import dev.muster.support.informer.SharedInformers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the components once the context is ready and stops them in reverse order: controllers and the
 * scheduler register with the informers first, so nothing misses the initial listing; on shutdown the
 * scheduler stops binding before the informers and the client go away.
 */
public final class ManagerLifecycle implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(ManagerLifecycle.class);

    private final SharedInformers informers;
    private final JobController jobs;
    private final PodGroupController podGroups;
    private final GangScheduler scheduler;
    private volatile boolean running;

    public ManagerLifecycle(SharedInformers informers, JobController jobs, PodGroupController podGroups, GangScheduler scheduler) {
        this.informers = informers;
        this.jobs = jobs;
        this.podGroups = podGroups;
        this.scheduler = scheduler;
    }

    @Override
    public synchronized void start() {
        podGroups.start();
        jobs.start();
        scheduler.start();
        informers.start();
        running = true;
        log.info("muster manager started: job controller, podgroup controller, gang scheduler");
    }

    @Override
    public synchronized void stop() {
        scheduler.stop();
        jobs.close();
        podGroups.close();
        informers.close();
        running = false;
        log.info("muster manager stopped");
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
