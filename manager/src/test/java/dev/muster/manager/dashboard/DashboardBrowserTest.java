package dev.muster.manager.dashboard;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Each page of the dashboard in a real headless chromium, on a running local cluster with a known workload
 * ({@link Dashboard}): what a user reads there, as the page draws it from the manager's caches.
 */
@Tag("emulator")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DashboardBrowserTest {
    private Dashboard dashboard;

    @BeforeAll
    void start() throws Exception {
        Dashboard.requireBrowser();
        dashboard = Dashboard.start();
    }

    @AfterAll
    void stop() {
        if (dashboard != null) {
            dashboard.close();
        }
    }

    private static final String LLM_HELD = "Queue research holds 8 nvidia.com/gpu of its limit of 8; the gang requests 12 more"
            + ", more than the whole limit: it cannot run in this queue unless the limit is raised.";

    @Test
    void queuesPageShowsEachQueueInItsTreeWithItsAmountsPerResourceAndItsWaitingGangs() {
        dashboard.open("#/queues", By.cssSelector("tr[data-queue='research'] li[data-gang='default/llm']"));
        assertThat(attributes("#queues-table tr[data-queue]", "data-queue")).containsExactly("default", "org", "research", "vision");
        String research = "#queues-table tr[data-queue='research'] ";
        assertThat(text(research + ".name")).isEqualTo("\u2514 research");
        assertThat(text(research + ".weight")).isEqualTo("2");
        assertThat(text(research + ".state")).isEqualTo("Open");
        assertThat(text(research + ".gangs")).isEqualTo("1 / 1");
        String gpu = research + "[data-resource='nvidia.com/gpu'] ";
        assertThat(List.of(text(gpu + ".allocated"), text(gpu + ".fairShare"), text(gpu + ".guarantee"), text(gpu + ".limit"),
                text(gpu + ".demand"))).containsExactly("8", "8", "4", "8", "20");
        // A full bar is 16 GPUs, vision's limit, above the cluster's 12: research's 8 fill half of it.
        assertThat(Double.parseDouble(attributes(gpu + "rect[data-kind='allocated']", "width").get(0)))
                .isCloseTo(110, within(0.01));
        assertThat(text(research + "[data-resource='cpu'] .guarantee")).isEqualTo("-");
        assertThat(text(research + "li[data-gang='default/llm'] .position"))
                .isEqualTo("1st in the scheduler's queue, QueueLimitReached");
        assertThat(dashboard.browser.findElements(By.cssSelector(research + ".invalid"))).isEmpty();
        assertThat(text("#queues-table tr[data-queue='vision'] .invalid")).startsWith("InvalidSpec: spec.limit");
    }

    /** The page loads without a token, asks for one, and once given the data calls carry it. */
    @Test
    void withoutATokenThePageAsksForOneAndShowsTheJobsOnceGiven() {
        ((JavascriptExecutor) dashboard.browser).executeScript("sessionStorage.clear()");
        WebElement form = dashboard.open("#/jobs", By.id("sign-in"));
        assertThat(form.getText()).contains("Sign in", "a bearer token is required");

        dashboard.browser.findElement(By.id("token")).sendKeys("not-a-token");
        form.findElement(By.cssSelector("button[type='submit']")).click();
        assertThat(new WebDriverWait(dashboard.browser, Duration.ofSeconds(60)).until(ExpectedConditions
                .textToBePresentInElementLocated(By.cssSelector("#sign-in .muted"),
                        "the API server does not accept this token"))).isTrue();

        dashboard.browser.findElement(By.id("token")).clear();
        dashboard.browser.findElement(By.id("token")).sendKeys(dashboard.token);
        dashboard.browser.findElement(By.cssSelector("#sign-in button[type='submit']")).click();
        dashboard.awaitShown(By.cssSelector("tr[data-job='default/train']"));
    }

    @Test
    void schedulerQueuePageShowsTheWaitingGangWithItsPositionAndWhyAndTheClusterAllocation() {
        dashboard.open("#/scheduler", By.cssSelector("tr[data-gang='default/llm']"));
        String llm = "#queue-table tr[data-gang='default/llm'] ";
        assertThat(text(llm + ".position")).isEqualTo("1");
        assertThat(text(llm + ".pods")).isEqualTo("0 pending, quorum 2");
        // research's limit of 8 GPUs holds llm before any node is tried.
        assertThat(text(llm + ".state")).isEqualTo("QueueLimitReached");
        assertThat(text(llm + ".message")).isEqualTo(LLM_HELD);
        assertThat(attributes("#queue-table tr[data-gang]", "data-gang")).containsExactly("default/llm");
        // train's two pods hold 4 GPUs, 2 cpu and 8Gi each; quick has finished and holds nothing.
        assertThat(text("#cluster-resources [data-resource='nvidia.com/gpu']")).isEqualTo("8 / 12");
        assertThat(text("#cluster-resources [data-resource='cpu']")).isEqualTo("4 / 48");
        assertThat(text("#cluster-resources [data-resource='memory']")).isEqualTo("16 Gi / 192 Gi");
        assertThat(text("nav a.active")).isEqualTo("Scheduler queue");
    }

    @Test
    void jobsPageListsEveryJobWithItsPhaseAndFiltersByPhaseAndName() {
        dashboard.open("#/jobs", By.cssSelector("tr[data-job='default/train']"));
        assertThat(text("tr[data-job='default/train'] .phase-cell")).isEqualTo("Running");
        assertThat(text("tr[data-job='default/train'] .tasks")).isEqualTo("worker 2/2");
        assertThat(text("tr[data-job='default/llm'] .phase-cell")).isEqualTo("Pending");
        assertThat(text("tr[data-job='default/quick'] .phase-cell")).isEqualTo("Completed");
        assertThat(text("tr[data-job='default/quick'] .tasks")).isEqualTo("main 0/1 (1 Succeeded)");

        new Select(dashboard.browser.findElement(By.id("filter-phase"))).selectByValue("Completed");
        awaitJobRows(List.of("default/quick"));
        new Select(dashboard.browser.findElement(By.id("filter-phase"))).selectByValue("");
        dashboard.browser.findElement(By.id("filter-name")).sendKeys("ll");
        awaitJobRows(List.of("default/llm"));
    }

    @Test
    void aRunningJobsPageShowsItsPhaseTimelineAndPods() {
        dashboard.open("#/job/default/train", By.id("pods-table"));
        assertThat(text("#job-phase")).isEqualTo("Running");
        assertThat(attributes("#pods-table tr[data-pod]", "data-pod")).containsExactly("train-worker-0", "train-worker-1");
        // A bar for each pod, and the phases Pending then Running, on the timeline.
        assertThat(attributes("#timeline g[data-pod] rect", "height")).hasSize(2);
        assertThat(attributes("#timeline g[data-row='phases'] rect", "data-phase")).containsExactly("Pending", "Running");
        assertThat(dashboard.browser.findElements(By.id("why-waits"))).isEmpty();
    }

    @Test
    void aWaitingJobsPageSaysWhereItIsInTheQueueAndWhy() {
        dashboard.open("#/job/default/llm", By.id("why-waits"));
        assertThat(text("#why-waits")).isEqualTo("1st in the scheduler's queue (QueueLimitReached, priority 0): " + LLM_HELD);
        assertThat(text("#job-phase")).isEqualTo("Pending");
        assertThat(text("#no-pods")).isEqualTo("No pods: the gang has not been admitted.");
        assertThat(text("#podgroup-conditions tr[data-type='Unschedulable']")).contains("True").contains("QueueLimitReached");
    }

    @Test
    void nodesPageShowsEachNodesGpuAllocationAndTheGangsOnIt() {
        dashboard.open("#/nodes", By.id("nodes-heat"));
        // node -> "GPU allocation | gangs"; train's two pods need a whole node's GPUs each, the third holds nothing.
        List<String> nodes = dashboard.read(browser -> browser.findElements(By.cssSelector("#nodes-heat tr[data-node]"))
                .stream().map(node -> node.findElement(By.cssSelector("[data-resource='nvidia.com/gpu']")).getText()
                        + " | " + node.findElement(By.className("gangs")).getText()).toList());
        assertThat(nodes).containsExactlyInAnyOrder("4 / 4 | default/train", "4 / 4 | default/train", "0 / 4 | ");
    }

    @Test
    void ganttChartShowsTheCompletedJobsRunAndTheWaitingJobOnlyWaiting() {
        dashboard.open("#/gantt", By.cssSelector("#gantt g[data-job='default/quick']"));
        assertThat(attributes("#gantt g[data-job='default/quick'] rect[data-phase]", "data-phase")).containsExactly("Completed");
        assertThat(attributes("#gantt g[data-job='default/train'] rect[data-phase]", "data-phase")).containsExactly("Running");
        // llm has never run: one bar, waiting since it was created.
        assertThat(attributes("#gantt g[data-job='default/llm'] rect", "data-phase")).containsExactly((String) null);
    }

    private String text(String css) {
        return dashboard.read(browser -> browser.findElement(By.cssSelector(css)).getText());
    }

    /** The attribute of each element {@code css} selects, in page order; null where an element has none. */
    private List<String> attributes(String css, String attribute) {
        return dashboard.read(browser -> browser.findElements(By.cssSelector(css)).stream()
                .map((WebElement element) -> element.getDomAttribute(attribute)).toList());
    }

    private void awaitJobRows(List<String> jobs) {
        dashboard.read(browser -> attributes("#jobs-table tr[data-job]", "data-job").equals(jobs));
    }
}
