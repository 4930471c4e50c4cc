package dev.muster.local.node;

import dev.muster.local.server.ServedResources;

/** PackageArrowsTest's positive control: the simulated side using a class of the server, which the layering forbids. */
public final class WrongArrow {
    private WrongArrow() {
    }

    /** Takes the server's resource table, the arrow the layering rule must catch. */
    public static String describe(ServedResources resources) {
        return resources.toString();
    }
}
