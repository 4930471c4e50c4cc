package dev.muster.job.decision;

import dev.muster.api.batch.v1alpha1.NetworkTopologySpec;
import dev.muster.api.scheduling.v1alpha1.PodGroupSchedulingConstraints;
import dev.muster.api.scheduling.v1alpha1.TopologyConstraint;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Volcano's {@code networkTopology} ({@code volcano-sh/apis} {@code pkg/apis/batch/v1alpha1/job.go}): tier 1 is the
 * tightest HyperNode tier, {@code highestTierAllowed: N} lets the gang span at most one tier-N domain, mode
 * {@code hard} (the default) must hold and {@code soft} is a preference.
 */
class NetworkTopologyTiersTest {
    private static final String SWITCH = "topology.muster.dev/switch";
    private static final String SPINE = "topology.muster.dev/spine";
    private static final String ZONE = "topology.kubernetes.io/zone";
    private static final NetworkTopologyTiers TIERS = new NetworkTopologyTiers(List.of(SWITCH, SPINE, ZONE));

    private static NetworkTopologySpec topology(String mode, Integer highestTierAllowed, String highestTierName) {
        NetworkTopologySpec spec = new NetworkTopologySpec();
        spec.setMode(mode);
        spec.setHighestTierAllowed(highestTierAllowed);
        spec.setHighestTierName(highestTierName);
        return spec;
    }

    private static List<String> keys(PodGroupSchedulingConstraints constraints) {
        return constraints.getTopology().stream().map(TopologyConstraint::getKey).toList();
    }

    @Test
    void highestTierAllowedNTakesTheFirstNTiersTightestFirstRequiredByDefault() {
        NetworkTopologyTiers.Mapping mapping = TIERS.map(topology(null, 2, null));

        assertThat(mapping.notHonoured()).isEmpty();
        assertThat(mapping.constraints()).hasValueSatisfying(c -> {
            assertThat(keys(c)).containsExactly(SWITCH, SPINE);
            assertThat(c.getTopologyPolicy()).isEqualTo(PodGroupSchedulingConstraints.REQUIRED);
        });
    }

    @Test
    void hardIsRequiredAndSoftIsPreferred() {
        assertThat(TIERS.map(topology("hard", 1, null)).constraints()).hasValueSatisfying(c -> {
            assertThat(keys(c)).containsExactly(SWITCH);
            assertThat(c.getTopologyPolicy()).isEqualTo(PodGroupSchedulingConstraints.REQUIRED);
        });
        assertThat(TIERS.map(topology("soft", 3, null)).constraints()).hasValueSatisfying(c -> {
            assertThat(keys(c)).containsExactly(SWITCH, SPINE, ZONE);
            assertThat(c.getTopologyPolicy()).isEqualTo(PodGroupSchedulingConstraints.PREFERRED);
        });
    }

    @Test
    void highestTierNameNamesATierByItsLabelKey() {
        assertThat(TIERS.map(topology(null, null, SPINE)).constraints())
                .hasValueSatisfying(c -> assertThat(keys(c)).containsExactly(SWITCH, SPINE));
    }

    @Test
    void withoutConfiguredTiersItIsNotHonouredAndSaysWhy() {
        NetworkTopologyTiers.Mapping mapping = NetworkTopologyTiers.NONE.map(topology("hard", 1, null));

        assertThat(mapping.constraints()).isEmpty();
        assertThat(mapping.notHonoured()).hasValue("this cluster configures no network tiers "
                + "(muster.scheduler.network-topology-tiers)");
    }

    @Test
    void anUnknownTierNameATierOutsideTheConfiguredOnesOrNoLimitIsNotHonoured() {
        assertThat(TIERS.map(topology(null, null, "rack")).notHonoured()).hasValueSatisfying(why ->
                assertThat(why).startsWith("highestTierName 'rack' is not one of this cluster's tiers [" + SWITCH));
        assertThat(TIERS.map(topology(null, 4, null)).notHonoured()).hasValueSatisfying(why ->
                assertThat(why).startsWith("highestTierAllowed 4 is not one of this cluster's tiers 1 to 3"));
        assertThat(TIERS.map(topology(null, 0, null)).notHonoured()).hasValueSatisfying(why ->
                assertThat(why).startsWith("highestTierAllowed 0 is not one of this cluster's tiers 1 to 3"));
        assertThat(TIERS.map(topology("hard", null, null)).notHonoured())
                .hasValueSatisfying(why -> assertThat(why).startsWith("it sets neither highestTierAllowed nor highestTierName"));
        assertThat(TIERS.map(topology(null, 5, null)).constraints()).isEmpty();
    }

    @Test
    void noNetworkTopologyMapsToNothingAndSaysNothing() {
        NetworkTopologyTiers.Mapping mapping = TIERS.map(null);

        assertThat(mapping.constraints()).isEmpty();
        assertThat(mapping.notHonoured()).isEmpty();
    }

    @Test
    void tiersAreDistinctLabelKeys() {
        assertThatThrownBy(() -> new NetworkTopologyTiers(List.of(SWITCH, SWITCH)))
                .hasMessageContaining("must not repeat a label key");
        assertThatThrownBy(() -> new NetworkTopologyTiers(List.of(SWITCH, " ")))
                .hasMessageContaining("must be node label keys");
    }
}
