package dev.muster.local;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A Kubernetes API emulator on loopback: fabric8's mock server, in CRUD mode with {@link MusterCrudDispatcher},
 * serving plain HTTP on a free port of 127.0.0.1.
 */
final class ApiEmulator implements AutoCloseable {
    /**
     * The mock web server logs every request at INFO through java.util.logging; at the request rates of
     * controllers and benchmarks that drowns everything else. Held here because JUL keeps loggers weakly.
     */
    private static final Logger REQUEST_LOG = Logger.getLogger(MockWebServer.class.getName());

    /** Requests in flight may fan out to all of these; fabric8's defaults (64, 5 per host) queue them. */
    private static final int MAX_CONCURRENT_REQUESTS = 256;

    private final KubernetesMockServer server;

    private final FaultInjector faults;

    private final MusterCrudDispatcher dispatcher;

    private ApiEmulator(KubernetesMockServer server, FaultInjector faults, MusterCrudDispatcher dispatcher) {
        this.server = server;
        this.faults = faults;
        this.dispatcher = dispatcher;
    }

    /** Starts an emulator with an empty store on a free port, failing requests as {@code faults} says. */
    static ApiEmulator start(FaultPlan faults) {
        REQUEST_LOG.setLevel(Level.WARNING);
        MockWebServer webServer = new MockWebServer();
        MusterCrudDispatcher dispatcher = new MusterCrudDispatcher();
        FaultInjector injector = new FaultInjector(dispatcher, faults);
        KubernetesMockServer server = new KubernetesMockServer(new Context(), webServer,
                new HashMap<>(), new RequestForgettingDispatcher(webServer, injector), false);
        server.start(loopback(), 0);
        return new ApiEmulator(server, injector, dispatcher);
    }

    /** Requests failed on purpose so far, by fault. */
    Map<FaultInjector.Fault, Long> faultsInjected() {
        return faults.injected();
    }

    /** Creates an object in the collection at {@code collectionPath} without admission; see {@link LocalCluster}. */
    MockResponse createWithoutAdmission(String collectionPath, JsonNode object) {
        return dispatcher.createWithoutAdmission(collectionPath, object);
    }

    /** Base URL, e.g. {@code http://127.0.0.1:38457}. */
    String url() {
        return "http://" + loopback().getHostAddress() + ":" + server.getPort();
    }

    /** A new client for the emulator, independent of any kubeconfig or environment of this machine. */
    KubernetesClient newClient(boolean exemptFromFaults) {
        ConfigBuilder builder = new ConfigBuilder(Config.empty());
        if (exemptFromFaults) {
            builder.withUserAgent(FaultInjector.EXEMPT_USER_AGENT);
        }
        Config config = builder
                .withMasterUrl(url())
                .withNamespace("default")
                .withMaxConcurrentRequests(MAX_CONCURRENT_REQUESTS)
                .withMaxConcurrentRequestsPerHost(MAX_CONCURRENT_REQUESTS)
                .build();
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    @Override
    public void close() {
        server.shutdown();
    }

    private static InetAddress loopback() {
        try {
            return InetAddress.getByName("127.0.0.1");
        } catch (UnknownHostException e) {
            throw new IllegalStateException("no IPv4 loopback", e);
        }
    }

    /**
     * The mock web server keeps every request it receives in a queue for tests to inspect; a cluster that
     * runs for hours must not, so the queue is emptied as requests arrive.
     */
    private static final class RequestForgettingDispatcher extends Dispatcher {
        private final MockWebServer webServer;
        private final Dispatcher delegate;

        RequestForgettingDispatcher(MockWebServer webServer, Dispatcher delegate) {
            this.webServer = webServer;
            this.delegate = delegate;
        }

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            webServer.reset();
            return delegate.dispatch(request);
        }
    }
}
