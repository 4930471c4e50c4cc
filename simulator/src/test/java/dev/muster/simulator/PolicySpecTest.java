package dev.muster.simulator;

import dev.muster.scheduler.core.cycle.CoschedulingArgs;
import dev.muster.scheduler.core.placement.NodeScoring;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PolicySpecTest {

    @Test
    void aBareNameKeepsTheSchedulerDefaults() {
        PolicySpec spec = PolicySpec.parse("muster");

        assertThat(spec.kind()).isEqualTo(PolicySpec.Kind.MUSTER);
        assertThat(spec.args()).isEqualTo(CoschedulingArgs.defaults());
        assertThat(spec.cyclePeriod()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void settingsOverrideTheDefaultsInCamelOrKebabCase() {
        PolicySpec spec = PolicySpec.parse(
                "muster:permitWaitingTime=30s,node-scoring=least-allocated,podGroupBackoff=PT2M,pod-group-reject-percentage=20,cyclePeriod=500ms");

        assertThat(spec.label()).startsWith("muster:");
        assertThat(spec.args()).isEqualTo(CoschedulingArgs.defaults().withPermitWaitingTime(Duration.ofSeconds(30))
                .withScoring(NodeScoring.LEAST_ALLOCATED).withPodGroupBackoff(Duration.ofMinutes(2))
                .withPodGroupRejectPercentage(20));
        assertThat(spec.cyclePeriod()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void rejectsUnknownPoliciesSettingsAndValues() {
        assertThatThrownBy(() -> PolicySpec.parse("sjf")).hasMessageContaining("unknown policy 'sjf'");
        assertThatThrownBy(() -> PolicySpec.parse("muster:speed=1")).hasMessageContaining("unknown setting 'speed'");
        assertThatThrownBy(() -> PolicySpec.parse("muster:permitWaitingTime=soon"))
                .hasMessageContaining("'soon' is not a duration");
        assertThatThrownBy(() -> PolicySpec.parse("fifo:permitWaitingTime=30s"))
                .hasMessageContaining("fifo takes only [localityTopologyKey, nodeScoring, vcs]");
    }

    @Test
    void vcsSaysHowAPolicyTreatsTheTeamsAndOnlyMusterHasQueues() {
        assertThat(PolicySpec.parse("muster").teams()).isNull();
        assertThat(PolicySpec.parse("muster:vcs=queues").teams()).isEqualTo(PolicySpec.Teams.QUEUES);
        assertThat(PolicySpec.parse("fifo:vcs=partition").teams()).isEqualTo(PolicySpec.Teams.PARTITION);
        assertThat(PolicySpec.parse("greedy:vcs=shared").teams()).isEqualTo(PolicySpec.Teams.SHARED);
        assertThatThrownBy(() -> PolicySpec.parse("fifo:vcs=queues"))
                .hasMessage("vcs=queues needs Muster's queues; fifo has none (use muster:vcs=queues)");
        assertThatThrownBy(() -> PolicySpec.parse("greedy:vcs=queues")).hasMessageContaining("greedy has none");
        assertThatThrownBy(() -> PolicySpec.parse("muster:vcs=teams"))
                .hasMessage("vcs: 'teams' is not shared, partition or queues");
        assertThat(PolicySpec.parse("muster:vcs=queues,reclaimDelay=0s").reclaimDelay()).isEqualTo(Duration.ZERO);
        assertThatThrownBy(() -> PolicySpec.parse("muster:reclaimDelay=5s"))
                .hasMessage("reclaimDelay is the team queues' and needs vcs=queues in 'muster:reclaimDelay=5s'");
    }
}
