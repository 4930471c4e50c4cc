package dev.muster.scheduler.core.model;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The hand-written equals and hashCode keep the record's contract: equal exactly when all three components are. */
class GroupKeyTest {

    @Test
    void keysAreEqualExactlyWhenNamespaceNameAndKindAre() {
        GroupKey key = GroupKey.podGroup("ns", "train");

        assertThat(key).isEqualTo(new GroupKey(new String("ns"), new String("train"), false))
                .hasSameHashCodeAs(new GroupKey("ns", "train", false));
        assertThat(key).isNotEqualTo(GroupKey.podGroup("other", "train"))
                .isNotEqualTo(GroupKey.podGroup("ns", "eval"))
                .isNotEqualTo(GroupKey.standalonePod("ns", "train"))
                .isNotEqualTo("podgroup ns/train")
                .isNotEqualTo(null);
    }

    @Test
    void aSetTellsAPodGroupFromAPodOfTheSameName() {
        Set<GroupKey> keys = new HashSet<>(Set.of(GroupKey.podGroup("ns", "a"), GroupKey.standalonePod("ns", "a")));

        assertThat(keys).hasSize(2).contains(GroupKey.podGroup("ns", "a"), GroupKey.standalonePod("ns", "a"))
                .doesNotContain(GroupKey.podGroup("ns", "b"));
    }
}
