package dev.muster.manager.dashboard;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.time.Duration;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each page of the dashboard in a real headless chromium, on a running local cluster with a known workload
 * ({@link Dashboard}): what a user reads there, as the page draws it from the manager's caches.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DashboardBrowserTest {
    private Dashboard dashboard;

    @BeforeAll
    void start() throws Exception {
        Dashboard.missingBrowser().ifPresent(reason -> {
            System.out.println("DashboardBrowserTest skipped: " + reason);
            Assumptions.abort(reason);
        });
        dashboard = Dashboard.start();
    }

    @AfterAll
    void stop() {
        if (dashboard != null) {
            dashboard.close();
        }
    }

    @Test
    void queuePageShowsTheWaitingGangWithItsPositionAndWhyAndTheClusterAllocation() {
        dashboard.open("#/queue", By.id("queue-table"));
        By llm = By.cssSelector("tr[data-gang='default/llm']");
        WebElement row = dashboard.awaitShown(llm);
        assertThat(row.findElement(By.className("position")).getText()).isEqualTo("1");
        assertThat(row.findElement(By.className("pods")).getText()).isEqualTo("0 pending, quorum 2");
        assertThat(row.findElement(By.className("state")).getText()).isEqualTo("NotEnoughResources");
        assertThat(row.findElement(By.className("message")).getText()).contains("3 Insufficient nvidia.com/gpu");
        assertThat(dashboard.browser.findElements(By.cssSelector("#queue-table tr[data-gang]"))).hasSize(1);
        // train's two pods hold 4 GPUs, 2 cpu and 8Gi each; quick has finished and holds nothing.
        assertThat(text("#cluster-resources [data-resource='nvidia.com/gpu']")).isEqualTo("8 / 12");
        assertThat(text("#cluster-resources [data-resource='cpu']")).isEqualTo("4 / 48");
        assertThat(text("#cluster-resources [data-resource='memory']")).isEqualTo("16 Gi / 192 Gi");
        assertThat(dashboard.browser.getPageSource()).contains("queues with fair share arrive with the Queue kind");
    }

    @Test
    void jobsPageListsEveryJobWithItsPhaseAndFiltersByPhase() {
        dashboard.open("#/jobs", By.cssSelector("tr[data-job='default/train']"));
        assertThat(text("tr[data-job='default/train'] .phase-cell")).isEqualTo("Running");
        assertThat(text("tr[data-job='default/train'] .tasks")).isEqualTo("worker 2/2");
        assertThat(text("tr[data-job='default/llm'] .phase-cell")).isEqualTo("Pending");
        assertThat(text("tr[data-job='default/quick'] .phase-cell")).isEqualTo("Completed");

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
        assertThat(dashboard.browser.findElements(By.cssSelector("#pods-table tr[data-pod]"))).hasSize(2);
        // A bar for each pod and the phases Pending then Running on the timeline.
        assertThat(dashboard.browser.findElements(By.cssSelector("#timeline g[data-pod] rect"))).hasSize(2);
        assertThat(dashboard.browser.findElements(By.cssSelector("#timeline g[data-row='phases'] rect")))
                .extracting(rect -> rect.getAttribute("data-phase")).containsExactly("Pending", "Running");
        assertThat(dashboard.browser.findElements(By.id("why-waits"))).isEmpty();
    }

    @Test
    void aWaitingJobsPageSaysWhereItIsInTheQueueAndWhy() {
        WebElement why = dashboard.open("#/job/default/llm", By.id("why-waits"));
        assertThat(why.getText()).startsWith("1st in the scheduler's queue (NotEnoughResources, priority 0): ")
                .contains("3 Insufficient nvidia.com/gpu");
        assertThat(text("#job-phase")).isEqualTo("Pending");
        assertThat(dashboard.browser.findElements(By.id("no-pods"))).hasSize(1);
        assertThat(text("#podgroup-conditions tr[data-type='Unschedulable']")).contains("True").contains("NotEnoughResources");
    }

    @Test
    void nodesPageShowsEachNodesGpuAllocationAndTheGangsOnIt() {
        dashboard.open("#/nodes", By.id("nodes-heat"));
        List<WebElement> nodes = dashboard.browser.findElements(By.cssSelector("#nodes-heat tr[data-node]"));
        assertThat(nodes).hasSize(3);
        // train's two pods need a whole node's GPUs each; the third node holds nothing.
        assertThat(nodes).extracting(node -> node.findElement(By.cssSelector("[data-resource='nvidia.com/gpu']")).getText())
                .containsExactlyInAnyOrder("4 / 4", "4 / 4", "0 / 4");
        assertThat(nodes).filteredOn(node -> node.getText().contains("4 / 4"))
                .extracting(node -> node.findElement(By.className("gangs")).getText())
                .containsExactly("default/train", "default/train");
    }

    @Test
    void ganttChartShowsTheCompletedJobsRunAndTheWaitingJobOnlyWaiting() {
        dashboard.open("#/gantt", By.cssSelector("#gantt g[data-job='default/quick']"));
        assertThat(dashboard.browser.findElements(By.cssSelector("#gantt g[data-job='default/quick'] rect[data-phase]")))
                .extracting(rect -> rect.getAttribute("data-phase")).containsExactly("Completed");
        assertThat(dashboard.browser.findElements(By.cssSelector("#gantt g[data-job='default/train'] rect[data-phase]")))
                .extracting(rect -> rect.getAttribute("data-phase")).containsExactly("Running");
        assertThat(dashboard.browser.findElements(By.cssSelector("#gantt g[data-job='default/llm'] rect[data-phase]"))).isEmpty();
        assertThat(dashboard.browser.findElements(By.cssSelector("#gantt g[data-job='default/llm'] rect"))).hasSize(1);
    }

    private String text(String css) {
        return dashboard.browser.findElement(By.cssSelector(css)).getText();
    }

    private void awaitJobRows(List<String> jobs) {
        new WebDriverWait(dashboard.browser, Duration.ofSeconds(10)).until(b ->
                b.findElements(By.cssSelector("#jobs-table tr[data-job]")).stream()
                        .map(row -> row.getAttribute("data-job")).toList().equals(jobs));
    }
}
