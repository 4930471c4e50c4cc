package dev.muster.manager.leadership;

import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/** Closes the Spring context (so every component stops in order) and then ends the JVM. */
public final class ProcessExiter implements Exiter {
    private final ConfigurableApplicationContext context;

    public ProcessExiter(ConfigurableApplicationContext context) {
        this.context = context;
    }

    /**
     * Exits from a thread of its own: the caller is usually the leader election's thread, which closing the
     * context stops and waits for.
     */
    @Override
    public void exit(int code) {
        Thread exit = new Thread(() -> System.exit(SpringApplication.exit(context, () -> code)), "muster-exit");
        exit.start();
    }
}
