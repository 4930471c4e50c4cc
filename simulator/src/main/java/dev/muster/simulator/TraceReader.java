package dev.muster.simulator;

import java.io.BufferedReader;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Reads a job trace: a CSV file with a header naming at least {@code timestamp}, {@code duration} and
 * {@code num_gpus}, and optionally {@code cluster} (the virtual cluster); other columns, such as the
 * Philly trace's {@code gpu_time}, are ignored. {@code timestamp} is the submission time, either
 * {@code yyyy-MM-dd HH:mm:ss} in UTC or seconds since any epoch; {@code duration} is in seconds and is
 * rounded to the second (at least 1); {@code num_gpus} is a whole number of at least 1. Jobs are returned
 * by submission time, then by line, since traces need not be sorted.
 */
public final class TraceReader {
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private TraceReader() {
    }

    /**
     * The jobs of a trace.
     *
     * @param file how error messages name the trace
     * @throws TraceFormatException naming file, line and column of the first bad field
     */
    public static List<TraceJob> read(String file, BufferedReader reader) {
        CsvTable table = CsvTable.read(file, reader);
        int timestamp = table.requiredColumn("timestamp");
        int duration = table.requiredColumn("duration");
        int gpus = table.requiredColumn("num_gpus");
        int cluster = table.column("cluster");
        List<TraceJob> jobs = new ArrayList<>(table.rows().size());
        for (CsvTable.Row row : table.rows()) {
            Instant submit = submit(table, row, timestamp);
            double seconds = table.decimal(row, duration);
            if (seconds < 0) {
                throw table.error(row, duration, "must not be negative");
            }
            long gpuCount = table.whole(row, gpus);
            if (gpuCount < 1 || gpuCount > Integer.MAX_VALUE) {
                throw table.error(row, gpus, "must be at least 1");
            }
            jobs.add(new TraceJob(row.line(), submit, Math.max(1, Math.round(seconds)), (int) gpuCount,
                    cluster < 0 ? "" : row.field(cluster)));
        }
        jobs.sort(Comparator.comparing(TraceJob::submit).thenComparingLong(TraceJob::id));
        return jobs;
    }

    private static Instant submit(CsvTable table, CsvTable.Row row, int column) {
        String text = row.field(column);
        if (!text.isEmpty() && text.chars().allMatch(c -> c >= '0' && c <= '9' || c == '.')) {
            return Instant.ofEpochSecond(table.whole(row, column));
        }
        try {
            return LocalDateTime.parse(text, TIMESTAMP).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw table.error(row, column, "not a time; expected yyyy-MM-dd HH:mm:ss (UTC) or seconds");
        }
    }
}
