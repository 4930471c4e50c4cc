package dev.muster.simulator;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A comma-separated file with a header line, read for its named columns. Fields are plain: no quoting,
 * since trace fields are numbers, dates and identifiers. Blank lines are skipped. Every error names the
 * file, the line and the 1-based column.
 */
final class CsvTable {
    private final String file;
    private final List<String> header;
    private final List<Row> rows;

    private CsvTable(String file, List<String> header, List<Row> rows) {
        this.file = file;
        this.header = header;
        this.rows = rows;
    }

    /** Reads the whole file; {@code file} is how errors name it. */
    static CsvTable read(String file, BufferedReader reader) {
        try {
            String first = reader.readLine();
            int lineNo = 1;
            while (first != null && first.isBlank()) {
                first = reader.readLine();
                lineNo++;
            }
            if (first == null) {
                throw new TraceFormatException(file, "is empty; expected a header line");
            }
            List<String> header = new ArrayList<>();
            for (String name : first.split(",", -1)) {
                header.add(name.strip().toLowerCase(Locale.ROOT));
            }
            List<Row> rows = new ArrayList<>();
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                String[] fields = line.split(",", -1);
                if (fields.length != header.size()) {
                    throw new TraceFormatException(file, lineNo, Math.min(fields.length, header.size()) + 1,
                            "expected " + header.size() + " fields as in the header, found " + fields.length);
                }
                rows.add(new Row(lineNo, fields));
            }
            return new CsvTable(file, List.copyOf(header), rows);
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": " + describe(e), e);
        }
    }

    /** An I/O failure for a message: a missing file's exception says only its name. */
    static String describe(IOException e) {
        return e instanceof NoSuchFileException ? "no such file" : e.getMessage();
    }

    List<Row> rows() {
        return rows;
    }

    /** The 0-based index of a column, or -1 if the header does not name it. */
    int column(String name) {
        return header.indexOf(name);
    }

    /** The 0-based index of a column the file must have. */
    int requiredColumn(String name) {
        int index = column(name);
        if (index < 0) {
            throw new TraceFormatException(file, 1, header.size() + 1,
                    "missing column '" + name + "'; the header has " + header);
        }
        return index;
    }

    /** An error about one field. */
    TraceFormatException error(Row row, int column, String message) {
        return new TraceFormatException(file, row.line(), column + 1,
                header.get(column) + " '" + row.field(column) + "': " + message);
    }

    /** A field as a number with no fraction beyond zeros, e.g. {@code 8} or {@code 8.0}. */
    long whole(Row row, int column) {
        double value = decimal(row, column);
        if (value != Math.rint(value)) {
            throw error(row, column, "not a whole number");
        }
        return (long) value;
    }

    /** A field as a decimal number. */
    double decimal(Row row, int column) {
        try {
            double value = Double.parseDouble(row.field(column));
            if (!Double.isFinite(value)) {
                throw error(row, column, "not a finite number");
            }
            return value;
        } catch (NumberFormatException e) {
            throw error(row, column, "not a number");
        }
    }

    /**
     * One line of the file.
     *
     * @param line   1-based line number
     * @param fields its fields
     */
    record Row(int line, String[] fields) {
        String field(int column) {
            return fields[column].strip();
        }
    }
}
