package dev.muster.api;

import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.LimitRangeBuilder;
import io.fabric8.kubernetes.api.model.LimitRangeItem;
import io.fabric8.kubernetes.api.model.LimitRangeItemBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** LimitRanger's container defaults, as kube-apiserver completes a LimitRange and applies it. */
class LimitRangeDefaultsTest {

    @Test
    void anItemsMissingDefaultsComeFromMaxThenDefaultThenMinAndTheFirstRangeByNameWins() {
        LimitRangeItem memory = new LimitRangeItemBuilder().withType("Container")
                .withMax(Map.of("memory", new Quantity("4Gi"))).withMin(Map.of("cpu", new Quantity("100m"))).build();
        LimitRangeItem pod = new LimitRangeItemBuilder().withType("Pod").withMax(Map.of("cpu", new Quantity("64"))).build();
        LimitRangeItem later = new LimitRangeItemBuilder().withType("Container")
                .withDefault(Map.of("memory", new Quantity("1Gi"), "cpu", new Quantity("2"))).build();

        LimitRangeDefaults defaults = LimitRangeDefaults.of(List.of(range("b-later", later), range("a-first", memory, pod)));

        // a-first: memory's default limit is its max, its default request that default; cpu's default request its min.
        // b-later adds only what a-first left out: a cpu limit of 2.
        assertThat(defaults.limits()).containsExactly(Map.entry("cpu", new Quantity("2")),
                Map.entry("memory", new Quantity("4Gi")));
        assertThat(defaults.requests()).containsExactly(Map.entry("cpu", new Quantity("100m")),
                Map.entry("memory", new Quantity("4Gi")));
    }

    @Test
    void withinOneLimitRangeALaterItemsDefaultWins() {
        LimitRangeItem first = new LimitRangeItemBuilder().withType("Container")
                .withDefault(Map.of("cpu", new Quantity("1"))).build();
        LimitRangeItem second = new LimitRangeItemBuilder().withType("Container")
                .withDefault(Map.of("cpu", new Quantity("3"))).build();

        LimitRangeDefaults defaults = LimitRangeDefaults.of(List.of(range("both", first, second)));

        assertThat(defaults.limits()).containsExactly(Map.entry("cpu", new Quantity("3")));
        assertThat(defaults.requests()).containsExactly(Map.entry("cpu", new Quantity("3")));
    }

    @Test
    void aContainersOwnLimitStandsForItsRequestAndInitContainersAreDefaultedToo() {
        LimitRangeDefaults defaults = LimitRangeDefaults.of(List.of(range("defaults", new LimitRangeItemBuilder()
                .withType("Container").withDefault(Map.of("cpu", new Quantity("2")))
                .withDefaultRequest(Map.of("cpu", new Quantity("1"))).build())));
        PodSpec spec = new PodSpecBuilder()
                .addNewInitContainer().withName("init").endInitContainer()
                .addNewContainer().withName("main").withNewResources().addToLimits("cpu", new Quantity("3"))
                .endResources().endContainer().build();

        PodSpec defaulted = defaults.applyTo(spec);

        assertThat(defaulted.getContainers().get(0).getResources().getRequests()).containsEntry("cpu", new Quantity("3"));
        assertThat(defaulted.getInitContainers().get(0).getResources().getRequests()).containsEntry("cpu", new Quantity("1"));
        assertThat(defaulted.getInitContainers().get(0).getResources().getLimits()).containsEntry("cpu", new Quantity("2"));
        assertThat(EffectiveRequests.amounts(defaulted)).containsEntry("cpu", new BigDecimal("3"));
        assertThat(spec.getInitContainers().get(0).getResources()).as("the template is not changed").isNull();
        assertThat(LimitRangeDefaults.of(List.of()).applyTo(spec)).isSameAs(spec);
    }

    private static LimitRange range(String name, LimitRangeItem... items) {
        return new LimitRangeBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec().withLimits(items)
                .endSpec().build();
    }
}
