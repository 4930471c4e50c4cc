package dev.muster.local.store;

import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OwnerIndexTest {
    private final OwnerIndex index = new OwnerIndex();

    @Test
    void objectsAreFoundByEveryOwnerTheyNameAndForgottenWhenRemoved() {
        AttributeSet pod = key("pod-0");
        index.put(pod, withOwners("job-uid", "group-uid"));
        index.put(key("bystander"), "{\"metadata\":{\"name\":\"bystander\"}}");

        assertThat(index.dependentsOf("job-uid")).containsExactly(pod);
        assertThat(index.dependentsOf("group-uid")).containsExactly(pod);
        assertThat(index.dependentsOf("other-uid")).isEmpty();

        index.remove(pod);
        assertThat(index.dependentsOf("job-uid")).isEmpty();
        assertThat(index.dependentsOf("group-uid")).isEmpty();
    }

    @Test
    void aRewrittenObjectIsFoundByItsNewOwnersOnly() {
        AttributeSet pod = key("pod-1");
        index.put(pod, withOwners("old-uid"));

        // The dispatcher removes the old key before it records the new version.
        index.remove(pod);
        index.put(pod, withOwners("new-uid"));

        assertThat(index.dependentsOf("old-uid")).isEmpty();
        assertThat(index.dependentsOf("new-uid")).containsExactly(pod);
    }

    private static AttributeSet key(String name) {
        return new AttributeSet(new Attribute("plural", "pods"), new Attribute("namespace", "default"),
                new Attribute("name", name));
    }

    private static String withOwners(String... uids) {
        StringBuilder references = new StringBuilder();
        for (String uid : uids) {
            references.append(references.isEmpty() ? "" : ",").append("{\"uid\":\"").append(uid).append("\"}");
        }
        return "{\"metadata\":{\"name\":\"x\",\"ownerReferences\":[" + references + "]}}";
    }
}
