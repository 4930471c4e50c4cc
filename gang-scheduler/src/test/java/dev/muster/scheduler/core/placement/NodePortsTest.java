package dev.muster.scheduler.core.placement;

import dev.muster.scheduler.core.CoreFixtures;
import dev.muster.scheduler.core.cluster.ClusterSnapshot;
import dev.muster.scheduler.core.cluster.ClusterState;
import dev.muster.scheduler.core.model.GangInfo;
import dev.muster.scheduler.core.model.HostPort;
import dev.muster.scheduler.core.model.InterPodTerms;
import dev.muster.scheduler.core.model.PlacementConstraints;
import dev.muster.scheduler.core.model.PodInfo;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.muster.scheduler.core.CoreFixtures.cluster;
import static dev.muster.scheduler.core.CoreFixtures.cpu;
import static dev.muster.scheduler.core.CoreFixtures.gang;
import static dev.muster.scheduler.core.CoreFixtures.node;
import static dev.muster.scheduler.core.CoreFixtures.pending;
import static org.assertj.core.api.Assertions.assertThat;

/** Host ports: no two pods on a node hold the same port, protocol and address. */
class NodePortsTest {

    private static PodInfo withPorts(GangInfo gang, String name, HostPort... ports) {
        return new PodInfo("ns", name, gang.key(), "", 0, cpu(1), PlacementConstraints.NONE, Map.of(),
                new InterPodTerms(List.of(), List.of(), List.of(ports)));
    }

    @Test
    void podsAskingForTheSameHostPortTakeDifferentNodes() {
        ClusterSnapshot snapshot = cluster(node("node-0", 8), node("node-1", 8)).snapshot();
        GangInfo gang = gang("web", 2);
        HostPort http = new HostPort(null, null, 8080);

        GangPlacement result = new GangTrial(snapshot).attempt(pending(gang,
                List.of(withPorts(gang, "web-0", http), withPorts(gang, "web-1", http))));

        assertThat(result.placements()).extracting(PodPlacement::nodeName).containsExactly("node-0", "node-1");
    }

    @Test
    void aPortHeldByARunningPodKeepsTheNodeAndTheReasonIsNodePorts() {
        ClusterState state = cluster(node("node-0", 8));
        GangInfo running = gang("running", 1);
        state.occupy("node-0", withPorts(running, "running-0", new HostPort("10.0.0.1", "UDP", 53)));
        GangInfo gang = gang("dns", 1);

        GangPlacement result = new GangTrial(state.snapshot()).attempt(pending(gang,
                List.of(withPorts(gang, "dns-0", new HostPort(null, "UDP", 53)))));

        assertThat(result.unschedulable().message())
                .isEqualTo("0/1 nodes are available: 1 node(s) didn't have free ports for the requested pod ports.");
    }

    @Test
    void portsConflictOnTheSameProtocolAndAddressOrTheWildcard() {
        HostPort anyTcp = new HostPort(null, null, 80);
        assertThat(anyTcp.conflictsWith(new HostPort("10.0.0.1", "TCP", 80))).isTrue();
        assertThat(new HostPort("10.0.0.1", "TCP", 80).conflictsWith(anyTcp)).isTrue();
        assertThat(new HostPort("10.0.0.1", "TCP", 80).conflictsWith(new HostPort("10.0.0.2", "TCP", 80))).isFalse();
        assertThat(anyTcp.conflictsWith(new HostPort(null, "UDP", 80))).isFalse();
        assertThat(anyTcp.conflictsWith(new HostPort(null, "TCP", 81))).isFalse();
    }
}
