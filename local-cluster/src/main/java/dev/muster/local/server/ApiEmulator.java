package dev.muster.local.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.muster.local.fault.FaultInjector;
import dev.muster.local.fault.FaultPlan;
import dev.muster.local.store.WatchHub;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;

import java.util.Map;

/**
 * A Kubernetes API emulator on loopback: fabric8's CRUD mock dispatcher, extended ({@link MusterCrudDispatcher}),
 * behind {@link ApiHttpServer} on a free port of 127.0.0.1, plain HTTP.
 */
public final class ApiEmulator implements AutoCloseable {
    private static final String LOOPBACK = "127.0.0.1";
    /** Requests in flight may fan out to all of these; fabric8's defaults (64, 5 per host) queue them. */
    private static final int MAX_CONCURRENT_REQUESTS = 256;

    private final ApiHttpServer server;
    private final MusterCrudDispatcher dispatcher;
    private final FaultInjector faults;
    private final ApiRequests requests;

    private ApiEmulator(ApiHttpServer server, MusterCrudDispatcher dispatcher, FaultInjector faults,
                        ApiRequests requests) {
        this.server = server;
        this.dispatcher = dispatcher;
        this.faults = faults;
        this.requests = requests;
    }

    /** Starts an emulator with an empty store on a free port, failing requests as {@code faults} says. */
    public static ApiEmulator start(FaultPlan faults) {
        return start(faults, WatchHub.DEFAULT_HISTORY);
    }

    /** As {@link #start(FaultPlan)}, keeping {@code watchHistory} changes for watches to resume from. */
    public static ApiEmulator start(FaultPlan faults, int watchHistory) {
        MusterCrudDispatcher store = new MusterCrudDispatcher(watchHistory);
        FaultInjector injector = new FaultInjector(store, faults);
        ApiRequests requests = new ApiRequests();
        Dispatcher dispatcher = requests.counting(injector);
        return new ApiEmulator(ApiHttpServer.start(LOOPBACK, dispatcher), store, injector, requests);
    }

    /** Requests failed on purpose so far, by fault. */
    public Map<FaultInjector.Fault, Long> faultsInjected() {
        return faults.injected();
    }

    /** The users and the authorizer of the review APIs. */
    public ClusterAccess access() {
        return dispatcher.access();
    }

    /** Requests answered so far, by client, verb and resource. */
    public ApiRequests requests() {
        return requests;
    }

    /**
     * Creates an object in the collection at {@code collectionPath} without admission, for tests that need an object
     * a real API server would have refused earlier (one stored before a schema tightened).
     */
    public MockResponse createWithoutAdmission(String collectionPath, JsonNode object) {
        return dispatcher.createWithoutAdmission(collectionPath, object);
    }

    /** Base URL, e.g. {@code http://127.0.0.1:38457}. */
    public String url() {
        return "http://" + LOOPBACK + ":" + server.port();
    }

    /** A new client for the emulator, independent of any kubeconfig or environment of this machine. */
    public KubernetesClient newClient(boolean exemptFromFaults) {
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
        server.close();
        dispatcher.shutdown();
    }
}
