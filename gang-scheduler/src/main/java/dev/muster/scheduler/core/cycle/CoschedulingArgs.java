package dev.muster.scheduler.core.cycle;

import dev.muster.scheduler.core.placement.NodeScoring;

import java.time.Duration;
import java.util.Objects;

/**
 * The coscheduling plugin's arguments, with the plugin's meaning and defaults (see
 * {@code docs/scheduling.md} for how they map onto Muster's cycle), and how nodes are scored.
 *
 * @param permitWaitingTime        how long a gang near its quorum may hold a reservation while later
 *                                 cycles try to complete it; a PodGroup's {@code scheduleTimeoutSeconds}
 *                                 overrides it for that group
 * @param podGroupBackoff          how long a gang that failed far from its quorum, or whose reservation
 *                                 expired, is not tried; zero disables backoff
 * @param podGroupRejectPercentage a failed gang with at most this percentage of its minMember unplaced
 *                                 counts as near its quorum: the head gang may then reserve, and no gang
 *                                 backs off; 0 never counts a failure as near, 100 always does
 * @param scoring                  how a node is chosen among those that fit
 * @param localityTopologyKey      node label naming a topology domain (e.g.
 *                                 {@code topology.kubernetes.io/zone} or a rack label): a gang's quorum is
 *                                 first tried within one domain, and anywhere only if no domain holds it;
 *                                 {@code null} to place gangs without regard to domains
 * @param admissionTimeout         how long an admitted gang (Inqueue) keeps the room promised to it while
 *                                 its workload creates its pods; a gang not placed by then goes back to
 *                                 Pending, releases the room, and is not admitted again for as long
 */
public record CoschedulingArgs(Duration permitWaitingTime, Duration podGroupBackoff, int podGroupRejectPercentage,
                               NodeScoring scoring, String localityTopologyKey, Duration admissionTimeout) {

    /** Default {@link #permitWaitingTime()}, the plugin's {@code permitWaitingTimeSeconds: 60}. */
    public static final Duration DEFAULT_PERMIT_WAITING_TIME = Duration.ofSeconds(60);
    /** Default {@link #podGroupBackoff()}: none, as the plugin's {@code podGroupBackoffSeconds: 0}. */
    public static final Duration DEFAULT_POD_GROUP_BACKOFF = Duration.ZERO;
    /** Default {@link #podGroupRejectPercentage()}, the plugin's. */
    public static final int DEFAULT_POD_GROUP_REJECT_PERCENTAGE = 10;
    /** Default {@link #scoring()}: bin-packing, which keeps whole nodes free for the next gang. */
    public static final NodeScoring DEFAULT_SCORING = NodeScoring.MOST_ALLOCATED;
    /** Default {@link #admissionTimeout()}. */
    public static final Duration DEFAULT_ADMISSION_TIMEOUT = Duration.ofSeconds(60);

    /** Arguments without gang locality, with the default admission timeout. */
    public CoschedulingArgs(Duration permitWaitingTime, Duration podGroupBackoff, int podGroupRejectPercentage,
                            NodeScoring scoring) {
        this(permitWaitingTime, podGroupBackoff, podGroupRejectPercentage, scoring, null, DEFAULT_ADMISSION_TIMEOUT);
    }

    public CoschedulingArgs {
        requireNonNegative(permitWaitingTime, "permitWaitingTime");
        requireNonNegative(podGroupBackoff, "podGroupBackoff");
        requireNonNegative(admissionTimeout, "admissionTimeout");
        if (podGroupRejectPercentage < 0 || podGroupRejectPercentage > 100) {
            throw new IllegalArgumentException("podGroupRejectPercentage must be 0..100: " + podGroupRejectPercentage);
        }
        Objects.requireNonNull(scoring, "scoring");
        if (localityTopologyKey != null && localityTopologyKey.isBlank()) {
            localityTopologyKey = null;
        }
    }

    /**
     * The plugin's defaults: 60 s waiting time, no backoff, 10 percent; bin-packing, no gang locality, and
     * 60 s for an admitted gang to be placed.
     */
    public static CoschedulingArgs defaults() {
        return new CoschedulingArgs(DEFAULT_PERMIT_WAITING_TIME, DEFAULT_POD_GROUP_BACKOFF,
                DEFAULT_POD_GROUP_REJECT_PERCENTAGE, DEFAULT_SCORING);
    }

    /** These arguments with another permit waiting time. */
    public CoschedulingArgs withPermitWaitingTime(Duration waitingTime) {
        return new CoschedulingArgs(waitingTime, podGroupBackoff, podGroupRejectPercentage, scoring,
                localityTopologyKey, admissionTimeout);
    }

    /** These arguments with another backoff. */
    public CoschedulingArgs withPodGroupBackoff(Duration backoff) {
        return new CoschedulingArgs(permitWaitingTime, backoff, podGroupRejectPercentage, scoring,
                localityTopologyKey, admissionTimeout);
    }

    /** These arguments with another reject percentage. */
    public CoschedulingArgs withPodGroupRejectPercentage(int percentage) {
        return new CoschedulingArgs(permitWaitingTime, podGroupBackoff, percentage, scoring, localityTopologyKey,
                admissionTimeout);
    }

    /** These arguments with another node scoring. */
    public CoschedulingArgs withScoring(NodeScoring nodeScoring) {
        return new CoschedulingArgs(permitWaitingTime, podGroupBackoff, podGroupRejectPercentage, nodeScoring,
                localityTopologyKey, admissionTimeout);
    }

    /** These arguments with another locality topology key; {@code null} for none. */
    public CoschedulingArgs withLocalityTopologyKey(String topologyKey) {
        return new CoschedulingArgs(permitWaitingTime, podGroupBackoff, podGroupRejectPercentage, scoring,
                topologyKey, admissionTimeout);
    }

    /** These arguments with another admission timeout. */
    public CoschedulingArgs withAdmissionTimeout(Duration timeout) {
        return new CoschedulingArgs(permitWaitingTime, podGroupBackoff, podGroupRejectPercentage, scoring,
                localityTopologyKey, timeout);
    }

    private static void requireNonNegative(Duration duration, String name) {
        Objects.requireNonNull(duration, name);
        if (duration.isNegative()) {
            throw new IllegalArgumentException(name + " must not be negative: " + duration);
        }
    }
}
