package dev.muster.manager.leadership;

import dev.muster.manager.config.MusterProperties;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectorBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Leadership by a {@code coordination.k8s.io/v1} Lease, with fabric8's leader elector: the holder renews
 * the Lease every retry period; a standby takes it over once it has not been renewed for the lease
 * duration. A leader that cannot renew within the renew deadline, or finds another holder in the Lease,
 * has lost: soon a standby may be acting, so this process must stop first.
 *
 * <p>fabric8 checks the renew deadline only between two attempts, and an attempt against an API server
 * that does not answer can take far longer than the lease duration. So this class also watches the
 * deadline itself, on this process's monotonic clock from the moment it sent the last renewal that
 * succeeded, and declares the lease lost when it passes, whatever the elector's thread is stuck in. Writes
 * need not wait for that: {@link #mayWrite()} is false from the deadline on (see {@link WriteFence}), so a
 * leader that failed to renew stops writing before a standby can take the lease, with the difference between
 * the lease duration and the renew deadline left for requests already sent.
 *
 * <p>fabric8's elector judges a lease held by another replica expired by comparing the holder's renew time
 * with this process's wall clock, so a standby whose clock runs ahead, or a leader whose clock lags, lets the
 * standby take the lease from a live leader. client-go judges it instead by when the candidate itself
 * observed the lease record change, on its own monotonic clock, and so does this class: the lock shows the
 * elector a holder's record as renewed when this process last saw it change.
 *
 * <p>The election has a client of its own that does not
 * retry (the elector does) and gives each request at most a retry period: on the shared client a renewal
 * would queue behind a burst of pod creations and binds, and a shutdown could hang in retries while it
 * gives the lease up.
 */
public final class LeaseLeadership implements Leadership {
    private static final Logger log = LoggerFactory.getLogger(LeaseLeadership.class);

    private final MusterProperties.LeaderElection settings;
    private final KubernetesClient client;
    private final ExecutorService electorThread;
    private final ScheduledExecutorService watchThread;
    private final ExecutorService startThread;
    private final AtomicBoolean lost = new AtomicBoolean();
    private volatile boolean stopping;
    private volatile boolean leading;
    private volatile String holder;
    /**
     * {@link System#nanoTime()} when this process sent the last write of the Lease, as holder, that succeeded;
     * the renew deadline counts from there. Sent, not answered: the API server may have applied it at once.
     */
    private volatile long renewSent;
    private volatile boolean renewedOnce;
    private volatile Runnable onLost;
    private CompletableFuture<?> election;

    /**
     * @param config   how to reach the API server; a client is built from it for the election alone
     * @param settings the Lease and its timing
     */
    public LeaseLeadership(Config config, MusterProperties.LeaderElection settings) {
        this.settings = settings;
        int perRequest = (int) settings.retryPeriod().toMillis();
        this.client = new KubernetesClientBuilder().withConfig(new ConfigBuilder(config)
                .withRequestRetryBackoffLimit(0)
                .withConnectionTimeout(perRequest)
                .withRequestTimeout(perRequest)
                .build()).build();
        this.electorThread = Executors.newSingleThreadExecutor(r -> daemon(r, "muster-leader-election"));
        // Apart from the elector's, whose attempts it must not wait behind.
        this.watchThread = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "muster-leader-deadline"));
        // fabric8 calls onStartLeading on the elector's thread: a start that took longer than the renew deadline
        // (informers of a large cluster to catch up) would hold back the renewals and lose the lease it just won.
        this.startThread = Executors.newSingleThreadExecutor(r -> daemon(r, "muster-leader-start"));
    }

    private static Thread daemon(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }

    @Override
    public synchronized void start(Runnable onLeading, Runnable onLost) {
        this.onLost = onLost;
        var config = new LeaderElectionConfigBuilder()
                .withName(settings.leaseName())
                .withLock(new RecordingLock(new LeaseLock(settings.namespace(), settings.leaseName(), settings.identity())))
                .withLeaseDuration(settings.leaseDuration())
                .withRenewDeadline(settings.renewDeadline())
                .withRetryPeriod(settings.retryPeriod())
                // On a clean shutdown a standby takes over at once instead of after the lease duration.
                .withReleaseOnCancel(true)
                .withLeaderCallbacks(new LeaderCallbacks(() -> startThread.execute(() -> acquired(onLeading)),
                        this::stoppedLeading, this::observed))
                .build();
        log.info("leader election: {} is campaigning for lease {} (lease duration {}, renew deadline {}, retry period {})",
                settings.identity(), settings.lease(), settings.leaseDuration(), settings.renewDeadline(),
                settings.retryPeriod());
        election = new LeaderElectorBuilder(client, electorThread).withConfig(config).build().start();
        // The leader must stop before a standby may start: within the margin between the two durations.
        long watch = Math.max(1, Math.min(settings.retryPeriod().toMillis(),
                settings.leaseDuration().minus(settings.renewDeadline()).toMillis()) / 4);
        watchThread.scheduleWithFixedDelay(this::checkDeadline, watch, watch, TimeUnit.MILLISECONDS);
    }

    private void acquired(Runnable onLeading) {
        if (stopping || lost.get()) {
            return;
        }
        leading = true;
        log.info("leader election: {} acquired lease {}; starting the components", settings.identity(), settings.lease());
        try {
            onLeading.run();
        } catch (RuntimeException e) {
            // Holding the lease without running the components would stall every job in the cluster; exiting
            // gives it to a standby.
            log.error("leader election: {} could not start the components; exiting", settings.identity(), e);
            lose();
        }
    }

    private void stoppedLeading() {
        if (stopping) {
            if (leading) {
                log.info("leader election: {} stopped leading lease {} on shutdown", settings.identity(), settings.lease());
            }
            leading = false;
        } else if (leading) {
            String why = holder == null || holder.equals(settings.identity())
                    ? "could not renew it within " + settings.renewDeadline()
                    : "it is now held by " + holder;
            log.error("leader election: {} lost lease {} ({}); stopping the components and exiting",
                    settings.identity(), settings.lease(), why);
            lose();
        }
    }

    private void checkDeadline() {
        if (leading && !stopping && !withinRenewDeadline()) {
            log.error("leader election: {} lost lease {} (last renewed {} ms ago, not within {}); "
                            + "stopping the components and exiting", settings.identity(), settings.lease(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - renewSent), settings.renewDeadline());
            lose();
        }
    }

    /** Whether this process renewed the lease, as holder, within the renew deadline. */
    private boolean withinRenewDeadline() {
        return renewedOnce && System.nanoTime() - renewSent < settings.renewDeadline().toNanos();
    }

    /**
     * True while this process leads and its last renewal was sent less than the renew deadline ago: the lease
     * cannot have passed to a standby, which waits the longer lease duration from when it saw that renewal.
     */
    @Override
    public boolean mayWrite() {
        return leading && !lost.get() && withinRenewDeadline();
    }

    private void lose() {
        leading = false;
        if (lost.compareAndSet(false, true)) {
            onLost.run();
        }
    }

    private void observed(String newHolder) {
        // fabric8 writes an empty holder when it gives a lease up.
        holder = newHolder == null || newHolder.isEmpty() ? null : newHolder;
        // Acquiring, losing and giving up on shutdown have lines of their own.
        if (!stopping && !settings.identity().equals(holder)) {
            log.info("leader election: new leader observed: lease {} is held by {} (this replica: {}, {})",
                    settings.lease(), holder == null ? "nobody" : holder, settings.identity(),
                    leading ? "leading" : "standing by");
        }
    }

    @Override
    public void stop() {
        stopping = true;
        CompletableFuture<?> running;
        synchronized (this) {
            running = election;
        }
        if (running != null) {
            // Cancelling gives the lease up, on this thread, before the client closes.
            running.cancel(true);
        }
        watchThread.shutdownNow();
        startThread.shutdownNow();
        electorThread.shutdownNow();
        client.close();
    }

    @Override
    public LeadershipStatus status() {
        return new LeadershipStatus(true, leading, settings.identity(), settings.lease(), holder);
    }

    /**
     * The Lease lock, noting when this process sent each record it wrote as holder, and showing the elector
     * another holder's record as renewed when this process last saw the record change.
     */
    private final class RecordingLock implements Lock {
        private final Lock lease;
        /** The record as last read, and {@link System#nanoTime()} when it was first read so. */
        private LeaderElectionRecord observed;
        private long observedAt;

        RecordingLock(Lock lease) {
            this.lease = lease;
        }

        @Override
        public synchronized LeaderElectionRecord get(KubernetesClient client) {
            LeaderElectionRecord record = lease.get(client);
            long now = System.nanoTime();
            if (record == null) {
                observed = null;
                return null;
            }
            if (!record.equals(observed)) {
                observed = record;
                observedAt = now;
            }
            if (settings.identity().equals(record.getHolderIdentity()) || record.getRenewTime() == null) {
                return record;
            }
            // The elector compares renewTime + lease duration with its wall clock: give it, on that clock, the
            // moment this process saw the record change, so that the holder's clock does not matter.
            ZonedDateTime seen = ZonedDateTime.now(ZoneOffset.UTC).minusNanos(now - observedAt);
            return record.toBuilder().renewTime(seen).build();
        }

        @Override
        public void create(KubernetesClient client, LeaderElectionRecord record) {
            long sent = System.nanoTime();
            lease.create(client, record);
            wrote(record, sent);
        }

        @Override
        public void update(KubernetesClient client, LeaderElectionRecord record) {
            long sent = System.nanoTime();
            lease.update(client, record);
            wrote(record, sent);
        }

        private void wrote(LeaderElectionRecord record, long sent) {
            if (settings.identity().equals(record.getHolderIdentity())) {
                renewSent = sent;
                renewedOnce = true;
            }
        }

        @Override
        public String identity() {
            return lease.identity();
        }

        @Override
        public String describe() {
            return lease.describe();
        }
    }
}
