package dev.muster.manager.wiring;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The manager's clients use fabric8's JDK transport. fabric8 7.4's Vert.x transport attaches a web socket's message
 * handlers only after Vert.x may already have resumed the socket, so a watch can lose the events the API server
 * sends first (the changes replayed to a resumed watch) and an informer keeps a stale object; fabric8 picks its
 * transport from the classpath, so a dependency that brought the Vert.x one back would silently switch to it.
 */
class HttpTransportTest {

    @Test
    void aClientBuiltAsTheManagerBuildsItTalksThroughTheJdkTransport() {
        Config config = new ConfigBuilder(Config.empty()).withMasterUrl("https://127.0.0.1:6443").build();
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
            // By name: the transport is a runtime dependency, not one the code compiles against.
            assertThat(client.getHttpClient().getClass().getName())
                    .isEqualTo("io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientImpl");
        }
    }

    @Test
    void theVertxTransportIsNotOnTheClasspath() {
        assertThatThrownBy(() -> Class.forName("io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory"))
                .isInstanceOf(ClassNotFoundException.class);
    }
}
