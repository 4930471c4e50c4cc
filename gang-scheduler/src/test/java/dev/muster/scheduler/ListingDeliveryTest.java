package dev.muster.scheduler;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

/**
 * The scheduler's first cycle waits until its handlers have been given what the informers listed, and no
 * longer: objects that keep coming and going on a busy cluster must not hold it back.
 */
class ListingDeliveryTest {
    private final Map<String, ConfigMap> store = new TreeMap<>();
    @SuppressWarnings("unchecked")
    private final SharedIndexInformer<ConfigMap> informer = mock(SharedIndexInformer.class);
    private final ListingDelivery delivery = new ListingDelivery(informer);
    private boolean synced;

    ListingDeliveryTest() {
        @SuppressWarnings("unchecked")
        Indexer<ConfigMap> indexer = mock(Indexer.class);
        when(informer.hasSynced()).thenAnswer(i -> synced);
        when(informer.getStore()).thenReturn(indexer);
        when(indexer.listKeys()).thenAnswer(i -> new ArrayList<>(store.keySet()));
        when(indexer.getByKey(anyString())).thenAnswer(i -> store.get(i.<String>getArgument(0)));
    }

    private ConfigMap stored(String name) {
        ConfigMap object = new ConfigMapBuilder().withNewMetadata().withNamespace("ns").withName(name).endMetadata().build();
        store.put("ns/" + name, object);
        return object;
    }

    @Test
    void waitsForTheListingThenForEachListedObjectTheHandlerHasNotHad() {
        ConfigMap a = stored("a");
        ConfigMap b = stored("b");
        delivery.given(a);
        assertThat(delivery.caughtUp()).as("not listed yet").isFalse();

        synced = true;
        assertThat(delivery.caughtUp()).as("b not given").isFalse();
        delivery.given(b);

        assertThat(delivery.caughtUp()).isTrue();
    }

    @Test
    void objectsThatComeAfterTheListingOrLeaveBeforeBeingGivenDoNotHoldItBack() {
        stored("listed-then-deleted");
        ConfigMap kept = stored("kept");
        synced = true;
        assertThat(delivery.caughtUp()).isFalse();

        store.remove("ns/listed-then-deleted");
        for (int i = 0; i < 100; i++) {
            stored("churn-" + i);
        }
        delivery.given(kept);

        assertThat(delivery.caughtUp()).isTrue();
    }
}
