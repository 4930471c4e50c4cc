package dev.muster.simulator;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.StackedXYAreaRenderer2;
import org.jfree.data.xy.DefaultTableXYDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntToDoubleFunction;
import java.util.function.ToDoubleFunction;

/** The report's pictures, drawn with JFreeChart as PNG. */
final class Charts {
    private static final int WIDTH = 960;
    private static final int HEIGHT = 440;
    /** Points per CDF curve: enough to look smooth, few enough to keep the picture small. */
    private static final int CDF_POINTS = 400;
    private static final String DAYS = "days since the first submission";

    /**
     * One picture.
     *
     * @param file    its file name
     * @param caption what it shows
     * @param png     the image
     */
    record Chart(String file, String caption, byte[] png) {
    }

    private Charts() {
    }

    /** Utilisation, queue length and JCT CDF for all policies, and each policy's GPU share per virtual cluster. */
    static List<Chart> draw(Report report) {
        List<Chart> charts = new ArrayList<>();
        double gpus = report.input().cluster().totalGpus();
        charts.add(timeChart(report, "utilisation.png", "GPU utilisation (% of GPUs held by running jobs)",
                "% of GPUs", sample -> 100 * sample.runningGpus() / gpus, true));
        charts.add(timeChart(report, "queue.png", "Queue length (jobs waiting for their pods)", "jobs waiting",
                SimResult.Sample::queue, false));
        charts.add(cdf(report));
        for (SimResult result : report.results()) {
            charts.add(vcShare(report, result));
        }
        return charts;
    }

    private static Chart timeChart(Report report, String file, String title, String axis, ToDoubleFunction<SimResult.Sample> value,
                                   boolean withHeld) {
        XYSeriesCollection data = new XYSeriesCollection();
        double step = report.input().samplePeriod().toMillis() / 86_400_000.0;
        double gpus = report.input().cluster().totalGpus();
        for (SimResult result : report.results()) {
            List<SimResult.Sample> samples = result.samples();
            data.addSeries(series(result.policy(), samples.size(), i -> i * step,
                    i -> value.applyAsDouble(samples.get(i))));
            if (withHeld && samples.stream().anyMatch(sample -> sample.heldGpus() > 0)) {
                data.addSeries(series(result.policy() + ": held idle by partial gangs", samples.size(),
                        i -> i * step, i -> 100 * samples.get(i).heldGpus() / gpus));
            }
        }
        JFreeChart chart = ChartFactory.createXYLineChart(title, DAYS, axis, data, PlotOrientation.VERTICAL,
                true, false, false);
        return new Chart(file, title, png(chart));
    }

    private static Chart cdf(Report report) {
        XYSeriesCollection data = new XYSeriesCollection();
        for (SimResult result : report.results()) {
            double[] jcts = result.jcts();
            Arrays.sort(jcts);
            int points = Math.min(CDF_POINTS, jcts.length);
            data.addSeries(series(result.policy(), points, i -> Math.max(1, jcts[last(i, points, jcts.length)]),
                    i -> (last(i, points, jcts.length) + 1) / (double) jcts.length));
        }
        String title = "Job completion time, cumulative distribution";
        JFreeChart chart = ChartFactory.createXYLineChart(title, "JCT (s, log scale)", "fraction of jobs", data,
                PlotOrientation.VERTICAL, true, false, false);
        LogAxis log = new LogAxis("JCT (s, log scale)");
        log.setSmallestValue(1);
        chart.getXYPlot().setDomainAxis(log);
        ((NumberAxis) chart.getXYPlot().getRangeAxis()).setRange(0, 1);
        return new Chart("jct-cdf.png", title, png(chart));
    }

    /**
     * Draws a small empty chart, which loads Java2D and its fonts. They register shutdown hooks of their own
     * when first used, which fails once the JVM is shutting down: the partial report after Ctrl-C could
     * not be drawn if this were the first chart.
     */
    static void warmUp() {
        png(ChartFactory.createXYLineChart("", "", "", new XYSeriesCollection()), 16, 16);
    }

    /** The index of the {@code i}-th of {@code points} evenly spread points among {@code n} sorted values. */
    private static int last(int i, int points, int n) {
        return (int) ((long) (i + 1) * n / points) - 1;
    }

    private static Chart vcShare(Report report, SimResult result) {
        DefaultTableXYDataset data = new DefaultTableXYDataset();
        double step = report.input().samplePeriod().toMillis() / 86_400_000.0;
        double gpus = report.input().cluster().totalGpus();
        List<String> vcs = report.input().vcs();
        for (int vc = 0; vc < vcs.size(); vc++) {
            int index = vc;
            XYSeries series = new XYSeries(vcs.get(vc).isEmpty() ? "(none)" : vcs.get(vc), false, false);
            for (int i = 0; i < result.samples().size(); i++) {
                series.add(i * step, 100 * result.samples().get(i).vcGpus()[index] / gpus, false);
            }
            data.addSeries(series);
        }
        String title = "GPU share per virtual cluster, " + result.policy();
        JFreeChart chart = ChartFactory.createXYLineChart(title, DAYS, "% of GPUs", data, PlotOrientation.VERTICAL,
                true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setRenderer(new StackedXYAreaRenderer2());
        ((NumberAxis) plot.getRangeAxis()).setRange(0, 100);
        return new Chart("vc-share-" + fileSafe(result.policy()) + ".png", title, png(chart));
    }

    private static XYSeries series(String name, int points, IntToDoubleFunction x,
                                   IntToDoubleFunction y) {
        XYSeries series = new XYSeries(name, false, true);
        for (int i = 0; i < points; i++) {
            series.add(x.applyAsDouble(i), y.applyAsDouble(i), false);
        }
        return series;
    }

    private static byte[] png(JFreeChart chart) {
        return png(chart, WIDTH, HEIGHT);
    }

    private static byte[] png(JFreeChart chart, int width, int height) {
        chart.setBackgroundPaint(Color.WHITE);
        chart.getPlot().setBackgroundPaint(Color.WHITE);
        if (chart.getPlot() instanceof XYPlot plot) {
            plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
            plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        }
        try {
            return ChartUtils.encodeAsPNG(chart.createBufferedImage(width, height));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A policy label as part of a file name. */
    static String fileSafe(String label) {
        return label.replaceAll("[^A-Za-z0-9._-]+", "_");
    }
}
