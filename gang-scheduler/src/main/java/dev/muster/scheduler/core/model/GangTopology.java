package dev.muster.scheduler.core.model;

import java.util.List;
import java.util.Objects;

/**
 * Where a gang's quorum lands: within one domain of a node label, trying the levels in order (tightest
 * first, e.g. a rack, then a zone) and, in each, the domain with the least room to spare that holds it.
 *
 * @param levels   node labels naming the domains, tightest first; not empty
 * @param required whether the gang waits rather than being placed across domains when no level holds
 *                 its quorum; otherwise it is placed wherever it fits
 */
public record GangTopology(List<String> levels, boolean required) {

    public GangTopology {
        levels = List.copyOf(Objects.requireNonNull(levels, "levels"));
        if (levels.isEmpty()) {
            throw new IllegalArgumentException("a gang topology names at least one level");
        }
    }

    /** One level, preferred: the scheduler's default gang locality. */
    public static GangTopology preferred(String topologyKey) {
        return new GangTopology(List.of(topologyKey), false);
    }
}
