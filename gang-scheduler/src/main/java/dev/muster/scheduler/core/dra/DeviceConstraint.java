package dev.muster.scheduler.core.dra;

import java.util.List;
import java.util.Objects;

/**
 * A claim's {@code constraints} entry: the devices of the named requests (all of the claim's when none is
 * named) must all carry the attribute, with one value.
 *
 * @param requests       request names (a {@code firstAvailable} request's name covers its subrequests, a
 *                       {@code request/subrequest} name only that one); empty: every request
 * @param matchAttribute the fully qualified attribute name
 */
public record DeviceConstraint(List<String> requests, String matchAttribute) {
    public DeviceConstraint {
        requests = requests == null ? List.of() : List.copyOf(requests);
        Objects.requireNonNull(matchAttribute, "matchAttribute");
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
}
