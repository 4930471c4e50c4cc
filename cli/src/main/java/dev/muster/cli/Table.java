package dev.muster.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** Columns aligned as kubectl aligns them: each as wide as its widest cell, three spaces apart. */
final class Table {
    private static final int PADDING = 3;

    private final List<List<String>> rows = new ArrayList<>();

    Table(List<String> headers) {
        rows.add(headers);
    }

    /** Adds a row, one cell per header. */
    Table row(List<String> cells) {
        rows.add(cells);
        return this;
    }

    /** Prints the rows, each line prefixed with {@code indent}. */
    void print(PrintWriter out, String indent) {
        int columns = rows.get(0).size();
        int[] widths = new int[columns];
        for (List<String> row : rows) {
            for (int i = 0; i < columns; i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder(indent);
            for (int i = 0; i < columns; i++) {
                line.append(row.get(i));
                if (i < columns - 1) {
                    line.append(" ".repeat(widths[i] - row.get(i).length() + PADDING));
                }
            }
            out.println(line.toString().stripTrailing());
        }
    }
}
