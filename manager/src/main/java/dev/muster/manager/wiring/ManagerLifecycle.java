package dev.muster.manager.wiring;

import dev.muster.job.JobController;
import dev.muster.manager.leadership.Exiter;
import dev.muster.manager.leadership.Leadership;
import dev.muster.manager.queue.DefaultQueue;
import dev.muster.podgroup.PodGroupController;
import dev.muster.scheduler.GangScheduler;
import dev.muster.support.informer.SharedInformers;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the informers once the context is ready, and the components once this process leads, after
 * one attempt to create the queue {@code default} if it is absent ({@link DefaultQueue}, which goes on trying
 * in the background if that attempt fails); stops them in reverse order.
 *
 * <p>The informers start at once on every replica, so a standby that takes over decides on a warm cache
 * and its health and endpoints have something to show. Components that register with the informers later
 * still see every object: an informer hands a new handler what it already holds. On shutdown the
 * scheduler stops binding before the lease is given up, and before the informers and the client go away.
 * A leader that loses its lease stops the components and exits with {@link #EXIT_LEADERSHIP_LOST}, to be
 * restarted as a standby: the components start once and cannot be resumed, and a fresh process is a
 * simpler state than a half-stopped one.
 */
public final class ManagerLifecycle implements SmartLifecycle {
    /** Exit code of a manager that lost its lease. */
    public static final int EXIT_LEADERSHIP_LOST = 1;

    private static final Logger log = LoggerFactory.getLogger(ManagerLifecycle.class);

    private final SharedInformers informers;
    private final JobController jobs;
    private final PodGroupController podGroups;
    private final GangScheduler scheduler;
    private final Leadership leadership;
    private final Exiter exiter;
    private final DefaultQueue defaultQueue;
    private volatile boolean running;
    private volatile boolean stopping;
    private boolean componentsRunning;

    public ManagerLifecycle(KubernetesClient client, SharedInformers informers, JobController jobs,
                            PodGroupController podGroups, GangScheduler scheduler, Leadership leadership, Exiter exiter) {
        this.informers = informers;
        this.jobs = jobs;
        this.podGroups = podGroups;
        this.scheduler = scheduler;
        this.leadership = leadership;
        this.exiter = exiter;
        this.defaultQueue = new DefaultQueue(client);
    }

    @Override
    public void start() {
        informers.start();
        running = true;
        leadership.start(this::startComponents, this::leadershipLost);
    }

    private synchronized void startComponents() {
        // The election's thread may call in while the context is stopping; starting then would race the stop.
        if (stopping || componentsRunning) {
            return;
        }
        // The leader alone writes; a standby that takes over finds the queue there.
        defaultQueue.ensure();
        podGroups.start();
        jobs.start();
        scheduler.start();
        componentsRunning = true;
        log.info("muster manager started: job controller, podgroup controller, gang scheduler");
    }

    private void leadershipLost() {
        stopComponents();
        exiter.exit(EXIT_LEADERSHIP_LOST);
    }

    /**
     * Stops the components before giving the lease up, so that a standby never acts while they still do.
     * Stopping the election happens outside this object's lock: it may wait for the election's thread, which
     * may be waiting for this lock in {@link #startComponents()} (and then finds {@code stopping} set).
     */
    @Override
    public void stop() {
        stopping = true;
        stopComponents();
        leadership.stop();
        informers.close();
        running = false;
        log.info("muster manager stopped");
    }

    private synchronized void stopComponents() {
        if (!componentsRunning) {
            return;
        }
        defaultQueue.stop();
        scheduler.stop();
        jobs.close();
        podGroups.close();
        componentsRunning = false;
        log.info("muster manager components stopped");
    }

    /** Whether the Job controller, the PodGroup controller and the gang scheduler run in this process. */
    public synchronized boolean componentsRunning() {
        return componentsRunning;
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
