package dev.muster.support.controller;

/**
 * The lifecycle every controller of the manager follows: constructing one attaches nothing; {@link #start()}
 * starts the workers, then registers indexes, informer handlers and listeners ({@link #attach}); {@link #stop()}
 * removes all of those and stops the workers, and {@link #start()} may follow again. The workers start first
 * because an informer hands a new handler every object it holds, and each of those is queued.
 */
public abstract class ManagedController implements AutoCloseable {
    private final Controller workers;
    private final Attachments attachments = new Attachments();
    private boolean started;

    /** @param workers runs the controller's reconciler */
    protected ManagedController(Controller workers) {
        this.workers = workers;
    }

    /**
     * Registers what makes the controller see changes: indexes ({@link Attachments#index}), handlers and
     * listeners, each through {@code attachments} so that {@link #stop()} removes it.
     */
    protected abstract void attach(Attachments attachments);

    /** The worker threads and their queue. */
    protected final Controller workers() {
        return workers;
    }

    /** Starts reconciling; a started controller is left as it is. */
    public final synchronized void start() {
        if (started) {
            return;
        }
        workers.start();
        attach(attachments);
        started = true;
    }

    /** Stops reconciling and detaches from everything {@link #start()} attached to; the shared informers keep running. */
    public final synchronized void stop() {
        if (!started) {
            return;
        }
        attachments.detachAll();
        workers.close();
        started = false;
    }

    /** Worker threads that died while the controller runs, for health reporting; see {@link Controller#deadWorkers()}. */
    public int deadWorkers() {
        return workers.deadWorkers();
    }

    /** Stops the controller; see {@link #stop()}. */
    @Override
    public void close() {
        stop();
    }
}
