package dev.muster.simulator;

import dev.muster.scheduler.GangSchedulerConfig;
import dev.muster.scheduler.core.cycle.CoschedulingArgs;
import dev.muster.scheduler.core.placement.NodeScoring;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A policy to simulate and its scheduler settings, parsed from {@code NAME[:KEY=VALUE,...]}, e.g.
 * {@code muster:permitWaitingTime=30s,nodeScoring=least-allocated}; keys may also be written as the manager's
 * {@code muster.scheduler.*} settings are ({@code permit-waiting-time}). Settings not given keep the
 * scheduler's defaults ({@link CoschedulingArgs#defaults()}, {@link GangSchedulerConfig#DEFAULT_CYCLE_PERIOD}).
 *
 * @param label       the policy as given, which names it in reports
 * @param kind        which policy
 * @param args        the coscheduling arguments and node scoring
 * @param cyclePeriod the scheduler's periodic cycle: a queue timer (a reservation, a backoff, a reclaim
 *                    delay) running out with no event to trigger a cycle is noticed at the next tick of this
 *                    period
 * @param teams       how the policy treats the virtual clusters (teams); {@code null}: as the command line
 *                    says for every policy ({@code --partition-by-vc} or not)
 * @param reclaimDelay the team queues' {@code reclaimDelay} with {@code vcs=queues}; {@code null}: a Queue's
 *                    default
 */
public record PolicySpec(String label, Kind kind, CoschedulingArgs args, Duration cyclePeriod, Teams teams,
                         Duration reclaimDelay) {
    /** The settings a policy accepts, as the scheduler's configuration names them, {@code vcs} and {@code reclaimDelay}. */
    public static final Set<String> SETTINGS = Set.of("permitWaitingTime", "podGroupBackoff",
            "podGroupRejectPercentage", "nodeScoring", "localityTopologyKey", "admissionTimeout", "cyclePeriod", "vcs",
            "reclaimDelay");
    /** The settings strict FIFO uses: it has no queue state, only the placement trial. */
    private static final Set<String> FIFO_SETTINGS = Set.of("nodeScoring", "localityTopologyKey", "vcs");
    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d+)(ms|s|m|h)");

    /** The policies the simulator knows. */
    public enum Kind {
        /** Strict FIFO without backfill: gangs in submission order, and the first that does not fit blocks all. */
        FIFO,
        /** Muster's gang scheduler: its production cycle ({@code QueuePlanner}), as the live scheduler runs it. */
        MUSTER,
        /** No gangs: each pod placed on its own as it fits, as the default Kubernetes scheduler does. */
        GREEDY
    }

    /** How the virtual clusters (teams) of the trace share the nodes: the {@code vcs} setting. */
    public enum Teams {
        /** {@code vcs=shared}: every job may use every node, in the default queue; the team is only recorded. */
        SHARED,
        /** {@code vcs=partition}: a job may use only its team's nodes (a nodeSelector), as Philly ran. */
        PARTITION,
        /**
         * {@code vcs=queues}: every job may use every node, in its team's Queue, which is guaranteed the GPUs of
         * the team's nodes, borrows what other teams leave idle and reclaims its guarantee when it needs it.
         */
        QUEUES
    }

    /** Parses {@code NAME[:KEY=VALUE,...]}; names and keys are as documented in {@code docs/simulator.md}. */
    public static PolicySpec parse(String text) {
        int colon = text.indexOf(':');
        String name = (colon < 0 ? text : text.substring(0, colon)).strip().toLowerCase(Locale.ROOT);
        Kind kind = switch (name) {
            case "fifo" -> Kind.FIFO;
            case "muster" -> Kind.MUSTER;
            case "greedy" -> Kind.GREEDY;
            default -> throw new IllegalArgumentException(
                    "unknown policy '" + name + "' in '" + text + "'; expected fifo, muster or greedy");
        };
        CoschedulingArgs args = CoschedulingArgs.defaults();
        Duration cyclePeriod = GangSchedulerConfig.DEFAULT_CYCLE_PERIOD;
        Teams teams = null;
        Duration reclaimDelay = null;
        if (colon >= 0) {
            for (String setting : text.substring(colon + 1).split(",")) {
                int eq = setting.indexOf('=');
                if (eq < 0) {
                    throw new IllegalArgumentException("expected KEY=VALUE, found '" + setting + "' in '" + text + "'");
                }
                String key = canonical(setting.substring(0, eq).strip());
                String value = setting.substring(eq + 1).strip();
                if (!SETTINGS.contains(key)) {
                    throw new IllegalArgumentException("unknown setting '" + key + "' in '" + text + "'; expected one of "
                            + new java.util.TreeSet<>(SETTINGS));
                }
                if (kind == Kind.FIFO && !FIFO_SETTINGS.contains(key)) {
                    throw new IllegalArgumentException("fifo takes only " + new java.util.TreeSet<>(FIFO_SETTINGS)
                            + ", not '" + key + "'");
                }
                switch (key) {
                    case "permitWaitingTime" -> args = args.withPermitWaitingTime(duration(key, value));
                    case "podGroupBackoff" -> args = args.withPodGroupBackoff(duration(key, value));
                    case "podGroupRejectPercentage" -> args = args.withPodGroupRejectPercentage(integer(key, value));
                    case "nodeScoring" -> args = args.withScoring(scoring(value));
                    case "localityTopologyKey" -> args = args.withLocalityTopologyKey(value);
                    case "admissionTimeout" -> args = args.withAdmissionTimeout(duration(key, value));
                    case "vcs" -> teams = teams(kind, value);
                    case "reclaimDelay" -> reclaimDelay = duration(key, value);
                    default -> cyclePeriod = duration(key, value);
                }
            }
        }
        if (cyclePeriod.isZero() || cyclePeriod.isNegative()) {
            throw new IllegalArgumentException("cyclePeriod must be positive in '" + text + "'");
        }
        if (reclaimDelay != null && teams != Teams.QUEUES) {
            throw new IllegalArgumentException("reclaimDelay is the team queues' and needs vcs=queues in '" + text + "'");
        }
        return new PolicySpec(text, kind, args, cyclePeriod, teams, reclaimDelay);
    }

    /** The setting's name in camel case, also given as the manager's kebab-case key ({@code permit-waiting-time}). */
    private static String canonical(String key) {
        String folded = key.replace("-", "").toLowerCase(Locale.ROOT);
        return SETTINGS.stream().filter(name -> name.toLowerCase(Locale.ROOT).equals(folded)).findFirst().orElse(key);
    }

    private static Duration duration(String key, String value) {
        Matcher shortForm = SHORT_DURATION.matcher(value);
        if (shortForm.matches()) {
            long amount = Long.parseLong(shortForm.group(1));
            return switch (shortForm.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                default -> Duration.ofHours(amount);
            };
        }
        try {
            return Duration.parse(value);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(key + ": '" + value + "' is not a duration such as 30s, 5m, 1h or PT30S");
        }
    }

    private static Teams teams(Kind kind, String value) {
        Teams teams = switch (value.toLowerCase(Locale.ROOT)) {
            case "shared" -> Teams.SHARED;
            case "partition" -> Teams.PARTITION;
            case "queues" -> Teams.QUEUES;
            default -> throw new IllegalArgumentException("vcs: '" + value + "' is not shared, partition or queues");
        };
        // Queues are the scheduler's: strict FIFO has none, and greedy stands for kube-scheduler, which has none.
        if (teams == Teams.QUEUES && kind != Kind.MUSTER) {
            throw new IllegalArgumentException("vcs=queues needs Muster's queues; " + kind.name().toLowerCase(Locale.ROOT)
                    + " has none (use muster:vcs=queues)");
        }
        return teams;
    }

    private static int integer(String key, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + ": '" + value + "' is not a whole number");
        }
    }

    private static NodeScoring scoring(String value) {
        return switch (value.toLowerCase(Locale.ROOT).replace('_', '-')) {
            case "most-allocated" -> NodeScoring.MOST_ALLOCATED;
            case "least-allocated" -> NodeScoring.LEAST_ALLOCATED;
            default -> throw new IllegalArgumentException(
                    "nodeScoring: '" + value + "' is not most-allocated or least-allocated");
        };
    }
}
