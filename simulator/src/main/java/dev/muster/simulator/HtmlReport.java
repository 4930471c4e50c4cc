package dev.muster.simulator;

import java.util.Base64;
import java.util.List;

/** The report as one HTML page that needs nothing else: the tables, and the pictures inlined as data URIs. */
final class HtmlReport {
    private HtmlReport() {
    }

    static String render(Report report, List<Charts.Chart> charts) {
        StringBuilder out = new StringBuilder("""
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8"><title>Muster simulation</title>
                <style>
                body { font-family: sans-serif; margin: 2em; }
                table { border-collapse: collapse; margin-bottom: 1.5em; }
                th, td { border: 1px solid #bbb; padding: 0.25em 0.6em; text-align: right; }
                th:first-child, td:first-child { text-align: left; }
                img { display: block; max-width: 100%; margin-bottom: 1.5em; }
                </style></head><body>
                <h1>Muster simulation</h1>
                """);
        out.append("<p>").append(Table.escape("Simulated " + report.subject())).append("</p>\n");
        out.append("<h2>Policies</h2>\n").append(report.summary().html());
        out.append("<h2>Per virtual cluster</h2>\n").append(report.perVc().html());
        out.append("<h2>Charts</h2>\n");
        for (Charts.Chart chart : charts) {
            out.append("<img alt=\"").append(Table.escape(chart.caption())).append("\" src=\"data:image/png;base64,")
                    .append(Base64.getEncoder().encodeToString(chart.png())).append("\">\n");
        }
        return out.append("</body></html>\n").toString();
    }
}
