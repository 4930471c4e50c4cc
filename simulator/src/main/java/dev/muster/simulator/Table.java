package dev.muster.simulator;

import java.util.List;

/**
 * A table of the report, written as Markdown for the terminal and the Markdown report, and as HTML.
 *
 * @param header column titles
 * @param rows   cells, as many per row as the header has
 */
record Table(List<String> header, List<List<String>> rows) {

    String markdown() {
        StringBuilder out = new StringBuilder();
        row(out, header);
        out.append('|');
        for (int i = 0; i < header.size(); i++) {
            out.append(i == 0 ? " --- |" : " ---: |");
        }
        out.append('\n');
        rows.forEach(row -> row(out, row));
        return out.toString();
    }

    String html() {
        StringBuilder out = new StringBuilder("<table>\n<tr>");
        header.forEach(cell -> out.append("<th>").append(escape(cell)).append("</th>"));
        out.append("</tr>\n");
        for (List<String> row : rows) {
            out.append("<tr>");
            row.forEach(cell -> out.append("<td>").append(escape(cell)).append("</td>"));
            out.append("</tr>\n");
        }
        return out.append("</table>\n").toString();
    }

    private static void row(StringBuilder out, List<String> cells) {
        out.append('|');
        cells.forEach(cell -> out.append(' ').append(cell.replace("|", "\\|")).append(" |"));
        out.append('\n');
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
