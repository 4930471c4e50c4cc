package dev.muster.scheduler.core.model;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BoundMembersTest {

    @Test
    void countsOnlyPodsOnNodesThatExist() {
        BoundMembers members = new BoundMembers();
        members.add("node-0", "worker");
        members.add("node-0", "ps");
        members.add("node-1", "worker");

        BoundMembers.Count onBoth = members.countOn(Set.of("node-0", "node-1")::contains);
        BoundMembers.Count afterNode0Went = members.countOn(Set.of("node-1")::contains);

        assertThat(onBoth).isEqualTo(new BoundMembers.Count(3, Map.of("worker", 2, "ps", 1)));
        assertThat(afterNode0Went).isEqualTo(new BoundMembers.Count(1, Map.of("worker", 1)));
    }

    @Test
    void removingThePodsOfANodeForgetsTheNode() {
        BoundMembers members = new BoundMembers();
        members.add("node-0", "worker");
        members.add("node-0", "worker");
        assertThat(members.anyOn("node-0")).isTrue();

        members.remove("node-0", "worker");
        assertThat(members.anyOn("node-0")).isTrue();
        members.remove("node-0", "worker");

        assertThat(members.anyOn("node-0")).isFalse();
        assertThat(members.isEmpty()).isTrue();
        assertThatThrownBy(() -> members.remove("node-0", "worker")).isInstanceOf(IllegalStateException.class);
    }
}
