package dev.muster.manager.dashboard;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Takes the screenshots in {@code docs/dashboard/} that {@code docs/dashboard.md} shows, each page on the
 * browser tests' workload. Not a check, so it runs only when asked:
 * {@code ./mvnw -pl manager -am test -Dtest=DashboardScreenshots -Dmuster.docs.screenshots=true
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@EnabledIfSystemProperty(named = "muster.docs.screenshots", matches = "true")
class DashboardScreenshots {
    /** docs/dashboard/, from the manager module, where Maven runs its tests. */
    private static final Path DOCS = Path.of("..", "docs", "dashboard");

    @Test
    void screenshotEachPage() throws Exception {
        Dashboard.requireBrowser();
        // file name -> the page, and what it must have drawn before the picture is taken
        Map<String, Map.Entry<String, By>> pages = Map.of(
                "queues.png", Map.entry("#/queues", By.cssSelector("tr[data-queue='research'] li[data-gang='default/llm']")),
                "scheduler-queue.png", Map.entry("#/scheduler", By.id("queue-table")),
                "jobs.png", Map.entry("#/jobs", By.cssSelector("tr[data-job='default/train']")),
                "job-running.png", Map.entry("#/job/default/train", By.id("pods-table")),
                "job-waiting.png", Map.entry("#/job/default/llm", By.id("why-waits")),
                "nodes.png", Map.entry("#/nodes", By.id("nodes-heat")),
                "gantt.png", Map.entry("#/gantt", By.cssSelector("#gantt g[data-job='default/quick']")));
        Files.createDirectories(DOCS);
        try (Dashboard dashboard = Dashboard.start()) {
            for (var page : pages.entrySet()) {
                dashboard.open(page.getValue().getKey(), page.getValue().getValue());
                byte[] png = ((TakesScreenshot) dashboard.browser).getScreenshotAs(OutputType.BYTES);
                Files.write(DOCS.resolve(page.getKey()), png);
            }
        }
    }
}
