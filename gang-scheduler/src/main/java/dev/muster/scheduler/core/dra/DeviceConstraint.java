package dev.muster.scheduler.core.dra;

import java.util.List;
import java.util.Objects;

/**
 * A claim's {@code constraints} entry: the devices of the named requests (all of the claim's when none is
 * named) must all carry the attribute, with one value ({@code matchAttribute}) or each with a value of its own
 * ({@code distinctAttribute}).
 *
 * @param requests  request names (a {@code firstAvailable} request's name covers its subrequests, a
 *                  {@code request/subrequest} name only that one); empty: every request
 * @param attribute the fully qualified attribute name
 * @param distinct  {@code distinctAttribute}: values differ; else {@code matchAttribute}: values are equal
 */
public record DeviceConstraint(List<String> requests, String attribute, boolean distinct) {
    public DeviceConstraint {
        requests = requests == null ? List.of() : List.copyOf(requests);
        Objects.requireNonNull(attribute, "attribute");
    }

    /** A {@code matchAttribute} constraint. */
    public DeviceConstraint(List<String> requests, String matchAttribute) {
        this(requests, matchAttribute, false);
    }

    /** Whether the constraint covers devices of the request (and, for firstAvailable, subrequest). */
    boolean covers(String request, String subrequest) {
        if (requests.isEmpty()) {
            return true;
        }
        for (String named : requests) {
            if (named.equals(request) || subrequest != null && named.equals(request + "/" + subrequest)) {
                return true;
            }
        }
        return false;
    }

    /** The constraint in words, for messages: {@code one gpu.example.com/clique} or {@code each a different ...}. */
    String text() {
        return (distinct ? "each a different " : "one ") + attribute;
    }
}
