package dev.muster.support.controller;

import java.util.ArrayList;
import java.util.List;

/**
 * The warnings an API server sends in {@code Warning} response headers (RFC 7234 section 5.5, as Kubernetes uses
 * them since 1.19: {@code 299 - "text"}, several per header separated by commas), read as client-go's
 * {@code ParseWarningHeaders} reads them: only code 299 counts, the text is a quoted string whose backslash
 * escapes are undone, an optional quoted date after it is skipped, and a header that does not parse is given up
 * from the point where it stops parsing, never failing the request it came with.
 *
 * <p>Written here because fabric8's client only logs these headers; it hands them to no caller.
 */
public final class ApiWarnings {
    private static final String KUBERNETES_CODE = "299";

    private ApiWarnings() {
    }

    /** The texts of the code-299 warnings in {@code headerValues}, in order, repeats kept. */
    public static List<String> parse(List<String> headerValues) {
        List<String> warnings = new ArrayList<>();
        for (String value : headerValues) {
            new Reader(value, warnings).readAll();
        }
        return warnings;
    }

    /** Reads one header value: {@code code SP agent SP quoted-text [SP quoted-date]} items separated by commas. */
    private static final class Reader {
        private final String value;
        private final List<String> into;
        private int at;

        Reader(String value, List<String> into) {
            this.value = value == null ? "" : value;
            this.into = into;
        }

        void readAll() {
            while (true) {
                skipSpaces();
                if (at >= value.length()) {
                    return;
                }
                String code = token();
                if (!space()) {
                    return;
                }
                if (token().isEmpty() || !space()) {
                    return;
                }
                String text = quoted();
                if (text == null) {
                    return;
                }
                int beforeDate = at;
                if (!space() || quoted() == null) {
                    at = beforeDate;
                }
                if (KUBERNETES_CODE.equals(code)) {
                    into.add(text);
                }
                skipSpaces();
                if (at < value.length() && value.charAt(at) != ',') {
                    return;
                }
                at++;
            }
        }

        private String token() {
            int start = at;
            while (at < value.length() && value.charAt(at) != ' ' && value.charAt(at) != ',') {
                at++;
            }
            return value.substring(start, at);
        }

        private boolean space() {
            if (at < value.length() && value.charAt(at) == ' ') {
                at++;
                return true;
            }
            return false;
        }

        private void skipSpaces() {
            while (at < value.length() && (value.charAt(at) == ' ' || value.charAt(at) == '\t')) {
                at++;
            }
        }

        /** A quoted string with its escapes undone, or null (nothing consumed that matters) if there is none. */
        private String quoted() {
            if (at >= value.length() || value.charAt(at) != '"') {
                return null;
            }
            StringBuilder text = new StringBuilder();
            for (int i = at + 1; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c == '\\' && i + 1 < value.length()) {
                    text.append(value.charAt(++i));
                } else if (c == '"') {
                    at = i + 1;
                    return text.toString();
                } else {
                    text.append(c);
                }
            }
            return null;
        }
    }
}
