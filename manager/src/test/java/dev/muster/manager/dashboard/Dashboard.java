package dev.muster.manager.dashboard;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.batch.v1alpha1.JobPhase;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.local.server.ClusterAccess;
import dev.muster.local.LocalCluster;
import dev.muster.local.LocalClusterConfig;
import dev.muster.manager.MusterApplication;
import dev.muster.manager.QueueFixtures;
import dev.muster.local.manifest.ManifestLoader;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import static dev.muster.manager.Patience.PATIENCE;
import static org.awaitility.Awaitility.await;

/**
 * A local cluster of three nodes with 4 GPUs each, the manager on it, the workload of
 * {@code dashboard-workload.yaml} applied and settled, and a headless chromium pointed at the dashboard.
 *
 * <p>The settled workload: {@code train} (2 × 4 GPUs) Running, holding two nodes' GPUs; {@code llm}
 * (2 × 6 GPUs) Pending, first in the scheduler's queue, held by its queue's limit (and no node has 6 GPUs
 * anyway); {@code quick} Completed. The
 * queues: {@code default}, and {@code org} (guarantee 4 GPUs, limit 12) with children {@code research} (weight
 * 2, guarantee 4 GPUs, limit 8), which {@code train} and {@code llm} are in, and {@code vision} (limit 16 GPUs,
 * above its parent's: not valid). Their status is the scheduler's.
 */
final class Dashboard implements AutoCloseable {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    final LocalCluster cluster;
    final ConfigurableApplicationContext manager;
    final WebDriver browser;
    final String url;
    /** A token of a user the local cluster lets see everything, as {@code ./muster local} mints one. */
    final String token;

    private Dashboard(LocalCluster cluster, ConfigurableApplicationContext manager, WebDriver browser) {
        this.cluster = cluster;
        this.manager = manager;
        this.browser = browser;
        this.url = "http://127.0.0.1:" + manager.getEnvironment().getProperty("local.server.port") + DashboardPages.PATH;
        this.token = cluster.access().mintToken(new ClusterAccess.User("viewer", List.of("system:authenticated")));
    }

    /** Opens the URL {@code ./muster local} prints, token in the fragment: the tab keeps the token. */
    void signIn() {
        browser.get(url + "#token=" + token);
        awaitShown(By.id("queues-table"));
    }

    /** Why the browser tests cannot run here, if they cannot: Debian's chromium and its driver are missing. */
    /**
     * Skips the calling test where the browser is missing on a developer's machine, and fails it under CI
     * ({@code CI=true}), where {@code .ci/run} installs the browser: a missing tool must never pass quietly.
     */
    static void requireBrowser() {
        missingBrowser().ifPresent(reason -> {
            if ("true".equals(System.getenv("CI"))) {
                throw new AssertionError("CI=true but " + reason);
            }
            System.out.println("skipped: " + reason);
            Assumptions.abort(reason);
        });
    }

    private static Optional<String> missingBrowser() {
        for (Path binary : List.of(CHROMIUM, CHROMEDRIVER)) {
            if (!Files.isExecutable(binary)) {
                return Optional.of(binary + " is not installed (apt-get install chromium chromium-driver)");
            }
        }
        return Optional.empty();
    }

    /** Starts everything and waits for the workload to settle. */
    static Dashboard start() throws Exception {
        LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(3).withNodeGpus(4));
        ConfigurableApplicationContext manager = MusterApplication.start(Map.of(
                "muster.kubernetes.master-url", cluster.url(),
                "server.port", 0,
                "server.address", "127.0.0.1",
                "spring.main.banner-mode", "off",
                // The only replica: leading at once keeps the queue page from starting as a standby's.
                "muster.leader-election.enabled", false));
        Dashboard dashboard = new Dashboard(cluster, manager, chromium());
        try {
            KubernetesClient client = cluster.client();
            QueueFixtures.create(client, "org", "{guarantee: {nvidia.com/gpu: '4'}, limit: {nvidia.com/gpu: '12'}}");
            QueueFixtures.create(client, "research", "{parent: org, weight: 2, guarantee: {nvidia.com/gpu: '4'}, "
                    + "limit: {nvidia.com/gpu: '8'}}");
            QueueFixtures.create(client, "vision", "{parent: org, limit: {nvidia.com/gpu: '16'}}");
            ManifestLoader.load(List.of(workload())).forEach(m -> client.resource(m.object()).create());
            await().atMost(PATIENCE).until(() -> dashboard.phase("train") == JobPhase.Running
                    && dashboard.phase("quick") == JobPhase.Completed && dashboard.phase("llm") == JobPhase.Pending
                    && client.resources(Queue.class).withName(Queue.DEFAULT).get() != null);
            // The queues' status is the scheduler's: wait until it tells of research's running and waiting gang.
            await().atMost(PATIENCE).until(() -> {
                Queue research = client.resources(Queue.class).withName("research").get();
                return research.getStatus() != null && Integer.valueOf(1).equals(research.getStatus().getPending())
                        && Integer.valueOf(1).equals(research.getStatus().getRunning());
            });
            dashboard.signIn();
            return dashboard;
        } catch (Exception | AssertionError e) {
            // The caller gets no Dashboard to close: do not leave a browser and a cluster running.
            dashboard.close();
            throw e;
        }
    }

    private static Path workload() throws Exception {
        return Path.of(Dashboard.class.getResource("dashboard-workload.yaml").toURI());
    }

    private static WebDriver chromium() {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        // --no-sandbox: CI containers run as root, where chromium's sandbox refuses to start.
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,860");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER.toString())).usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }

    JobPhase phase(String name) {
        Job job = cluster.client().resources(Job.class).inNamespace("default").withName(name).get();
        return job == null || job.getStatus() == null || job.getStatus().getState() == null ? null
                : job.getStatus().getState().getPhase();
    }

    /** Opens a page of the dashboard, e.g. {@code #/nodes}, and waits until it has drawn {@code drawn}. */
    WebElement open(String hash, By drawn) {
        browser.get(url + hash);
        return awaitShown(drawn);
    }

    /** Waits until the page shows {@code element}, for up to a minute. */
    WebElement awaitShown(By element) {
        return new WebDriverWait(browser, PATIENCE).until(ExpectedConditions.visibilityOfElementLocated(element));
    }

    /**
     * What {@code reading} reads from the page, read again if the page redrew in between: each page redraws
     * on every poll, which leaves elements found before it stale.
     */
    <T> T read(Function<WebDriver, T> reading) {
        return new WebDriverWait(browser, PATIENCE).ignoring(StaleElementReferenceException.class).until(reading::apply);
    }

    @Override
    public void close() {
        browser.quit();
        manager.close();
        cluster.close();
    }
}
