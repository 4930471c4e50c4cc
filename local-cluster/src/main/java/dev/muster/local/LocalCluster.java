package dev.muster.local;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.Queue;
import dev.muster.local.admission.ClaimDefaults;
import dev.muster.local.autoscaler.AutoscalerConfig;
import dev.muster.local.autoscaler.NodeGroup;
import dev.muster.local.autoscaler.SimulatedAutoscaler;
import dev.muster.local.disruption.SimulatedDisruptionController;
import dev.muster.local.dra.GpuApi;
import dev.muster.local.dra.SimulatedGpuDriver;
import dev.muster.local.dra.SimulatedResourceClaimController;
import dev.muster.local.fault.FaultPlan;
import dev.muster.local.node.SimulatedKubelet;
import dev.muster.local.node.SimulatedNodes;
import dev.muster.local.quota.SimulatedQuotaController;
import dev.muster.local.server.ApiEmulator;
import dev.muster.local.server.ApiRequests;
import dev.muster.local.server.ClusterAccess;
import dev.muster.local.store.WatchHub;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.ConfigBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamedClusterBuilder;
import io.fabric8.kubernetes.api.model.NamedContextBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.MockResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A Kubernetes cluster in this JVM for {@code ./muster local}, integration tests and benchmarks: an API
 * emulator on a free port of 127.0.0.1 (plain HTTP) with Muster's CRDs installed and a {@code default}
 * namespace, a pool of simulated nodes {@code node-0 .. node-(n-1)}, and a simulated kubelet that runs the pods
 * bound to any node of the cluster, a disruption controller that keeps the status of PodDisruptionBudgets,
 * which the Eviction API respects, a quota controller that keeps the status of ResourceQuotas, which pod
 * creation respects, for DRA a GPU driver's ResourceSlices ({@link SimulatedGpuDriver}) and a resourceclaim
 * controller that creates pods' claims from their templates, and, given node groups, a
 * cluster autoscaler ({@link AutoscalerConfig}) that serves ProvisioningRequests and adds and removes group
 * nodes. Connect with {@link #client()} or, from outside the JVM, through
 * {@link #writeKubeconfig(Path)}.
 *
 * <pre>{@code
 * try (LocalCluster cluster = LocalCluster.start(LocalClusterConfig.defaults().withNodes(2))) {
 *     cluster.client().pods().resource(pod).create();
 * }
 * }</pre>
 */
public final class LocalCluster implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LocalCluster.class);
    private static final String CONTEXT = "muster-local";
    /** Muster's kinds; their CRDs are the ones fabric8's crd-generator put into the {@code crd} jar. */
    private static final List<Class<? extends HasMetadata>> CUSTOM_RESOURCES = List.of(Job.class, PodGroup.class, Queue.class);

    private final ApiEmulator emulator;
    private final KubernetesClient client;
    private final LocalClusterConfig config;
    private final SimulatedNodes nodes;
    private final SimulatedGpuDriver gpuDriver;
    private final SimulatedKubelet kubelet;
    private final SimulatedDisruptionController disruptionController;
    private final SimulatedResourceClaimController claimController;
    private final SimulatedQuotaController quotaController;
    /** Null when the configuration has no node groups. */
    private final SimulatedAutoscaler autoscaler;
    private final AtomicBoolean closed = new AtomicBoolean();

    private LocalCluster(ApiEmulator emulator, KubernetesClient client, LocalClusterConfig config, SimulatedNodes nodes,
                         SimulatedGpuDriver gpuDriver, SimulatedKubelet kubelet,
                         SimulatedDisruptionController disruptionController,
                         SimulatedResourceClaimController claimController, SimulatedQuotaController quotaController,
                         SimulatedAutoscaler autoscaler) {
        this.emulator = emulator;
        this.autoscaler = autoscaler;
        this.client = client;
        this.config = config;
        this.nodes = nodes;
        this.gpuDriver = gpuDriver;
        this.kubelet = kubelet;
        this.disruptionController = disruptionController;
        this.claimController = claimController;
        this.quotaController = quotaController;
    }

    /**
     * Starts a cluster and returns once its nodes exist and the kubelet watches them.
     *
     * @throws IllegalStateException if the emulator or the kubelet cannot start
     */
    public static LocalCluster start(LocalClusterConfig config) {
        return start(config, WatchHub.DEFAULT_HISTORY);
    }

    /** As {@link #start(LocalClusterConfig)}, keeping {@code watchHistory} changes for watches to resume from. */
    static LocalCluster start(LocalClusterConfig config, int watchHistory) {
        ApiEmulator emulator = ApiEmulator.start(config.faults(), watchHistory);
        KubernetesClient client = null;
        try {
            client = emulator.newClient(true);
            for (Class<? extends HasMetadata> type : CUSTOM_RESOURCES) {
                client.apiextensions().v1().customResourceDefinitions().resource(generatedCrd(type)).create();
            }
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("default").endMetadata()
                    .build()).create();
            // kube-apiserver makes these two at start, and pods of the kube-system kind name them.
            client.resource(new PriorityClassBuilder().withNewMetadata().withName("system-node-critical").endMetadata()
                    .withValue(2_000_001_000).withDescription("For critical pods that must not move from their node.")
                    .build()).create();
            client.resource(new PriorityClassBuilder().withNewMetadata().withName("system-cluster-critical").endMetadata()
                    .withValue(2_000_000_000).withDescription("For critical pods that must run, on whichever node.")
                    .build()).create();
            // The default class claims get (ClaimDefaults); nothing provisions volumes, the simulated kubelet needs none.
            client.storage().v1().storageClasses().resource(new StorageClassBuilder().withNewMetadata()
                    .withName(ClaimDefaults.DEFAULT_CLASS)
                    .addToAnnotations("storageclass.kubernetes.io/is-default-class", "true").endMetadata()
                    .withProvisioner("muster.dev/simulated").withVolumeBindingMode("WaitForFirstConsumer").build())
                    .create();
            SimulatedNodes nodes = new SimulatedNodes(config.nodeShape());
            SimulatedGpuDriver gpuDriver = new SimulatedGpuDriver(config.gpuCliqueSize());
            if (config.gpuApi().dra()) {
                client.resource(SimulatedGpuDriver.deviceClass()).create();
            }
            for (int i = 0; i < config.nodes(); i++) {
                Node node = client.nodes().resource(nodes.poolNode(i)).create();
                publishGpus(client, config, gpuDriver, node, config.nodeGpus());
            }
            if (config.autoscaler().enabled()) {
                // As installing Cluster Autoscaler brings its CRD: the API exists only where an autoscaler serves it.
                client.apiextensions().v1().customResourceDefinitions().resource(provisioningRequestCrd()).create();
                for (NodeGroup group : config.autoscaler().nodeGroups()) {
                    for (int i = 0; i < group.min(); i++) {
                        client.nodes().resource(nodes.simulated(group.node(i))).create();
                    }
                }
            }
            SimulatedKubelet kubelet = SimulatedKubelet.start(emulator.newClient(true), config.kubeletTimings(), nodes);
            SimulatedDisruptionController disruptionController;
            SimulatedResourceClaimController claimController;
            SimulatedQuotaController quotaController;
            SimulatedAutoscaler autoscaler = null;
            try {
                disruptionController = SimulatedDisruptionController.start(emulator.newClient(true));
            } catch (RuntimeException e) {
                kubelet.close();
                throw e;
            }
            try {
                claimController = SimulatedResourceClaimController.start(emulator.newClient(true));
            } catch (RuntimeException e) {
                disruptionController.close();
                kubelet.close();
                throw e;
            }
            try {
                quotaController = SimulatedQuotaController.start(emulator.newClient(true));
            } catch (RuntimeException e) {
                claimController.close();
                disruptionController.close();
                kubelet.close();
                throw e;
            }
            if (config.autoscaler().enabled()) {
                try {
                    autoscaler = SimulatedAutoscaler.start(emulator.newClient(true), config.autoscaler(), nodes);
                } catch (RuntimeException e) {
                    quotaController.close();
                    claimController.close();
                    disruptionController.close();
                    kubelet.close();
                    throw e;
                }
            }
            log.info("local cluster at {} with {} nodes of {} CPU, {} memory, {} GPUs ({})", emulator.url(),
                    config.nodes(), config.nodeCpu(), config.nodeMemory(), config.nodeGpus(),
                    config.gpuApi().name().toLowerCase(Locale.ROOT));
            return new LocalCluster(emulator, client, config, nodes, gpuDriver, kubelet, disruptionController,
                    claimController, quotaController, autoscaler);
        } catch (RuntimeException e) {
            if (client != null) {
                client.close();
            }
            emulator.close();
            throw e;
        }
    }

    /**
     * A client of this cluster, owned by it: closed by {@link #close()}, so callers must not close it.
     * Its default namespace is {@code default} and its concurrent-request limits are lifted. Its requests
     * are never failed by a {@link FaultPlan}: it is the observer's view of the truth.
     */
    public KubernetesClient client() {
        return client;
    }

    /**
     * A new client for a component under test, owned by the caller: unlike {@link #client()}, its requests are
     * failed as the configuration's {@link FaultPlan} says.
     */
    public KubernetesClient newClient() {
        return emulator.newClient(false);
    }

    /** Requests failed on purpose so far, by fault ({@code SERVER_ERROR}, {@code CONFLICT}, ...). */
    public Map<String, Long> faultsInjected() {
        Map<String, Long> counts = new LinkedHashMap<>();
        emulator.faultsInjected().forEach((fault, n) -> counts.put(fault.name(), n));
        return counts;
    }

    /** API requests answered so far, by client, verb and resource: what the work costs the API server. */
    public ApiRequests apiRequests() {
        return emulator.requests();
    }

    /**
     * Who this cluster's TokenReview knows and what its SubjectAccessReviews allow (everything, by default);
     * changes apply to the next review.
     */
    public ClusterAccess access() {
        return emulator.access();
    }

    /** The API server URL, e.g. {@code http://127.0.0.1:38457}. */
    public String url() {
        return emulator.url();
    }

    /**
     * Writes a kubeconfig for this cluster (context {@code muster-local}, namespace {@code default}, no
     * credentials) usable by kubectl and any client, creating parent directories.
     *
     * @return {@code file}
     */
    public Path writeKubeconfig(Path file) {
        return writeKubeconfig(file, null);
    }

    /**
     * As {@link #writeKubeconfig(Path)}, with {@code token} as the user's bearer token (none when null): one that
     * {@link #access()} knows, for clients that pass it on, such as {@code muster describe --manager-url}.
     *
     * @return {@code file}
     */
    public Path writeKubeconfig(Path file, String token) {
        var kubeconfig = new ConfigBuilder()
                .withApiVersion("v1").withKind("Config")
                .addToClusters(new NamedClusterBuilder().withName(CONTEXT).withNewCluster().withServer(url())
                        .endCluster().build())
                .addToContexts(new NamedContextBuilder().withName(CONTEXT).withNewContext().withCluster(CONTEXT)
                        .withUser(CONTEXT).withNamespace("default").endContext().build())
                .addNewUser().withName(CONTEXT).withNewUser().withToken(token).endUser().endUser()
                .withCurrentContext(CONTEXT)
                .build();
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, Serialization.asYaml(kubeconfig));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write kubeconfig " + file, e);
        }
    }

    /**
     * Adds a node to the cluster, as KWOK does with Node objects from a user's manifests: the node is labelled
     * {@code local.muster.dev/simulated=true} and, where missing, with the labels a kubelet sets
     * ({@code kubernetes.io/hostname}, {@code kubernetes.io/os}, {@code kubernetes.io/arch}), missing status (capacity from
     * this cluster's configuration, allocatable, Ready) is filled in, and the simulated kubelet runs its pods.
     * Its GPUs ({@code nvidia.com/gpu} in the capacity it gives, else the pool's) are offered as the configuration's
     * {@link GpuApi} says: with DRA, {@link SimulatedGpuDriver} publishes them in a ResourceSlice, in the clique
     * after the nodes before it. Nodes created through the API directly (e.g. {@code kubectl apply}) are run too and
     * get the same status, but no slice.
     *
     * @throws io.fabric8.kubernetes.client.KubernetesClientException with code 409 if the node exists
     */
    public void addSimulatedNode(Node node) {
        int gpus = nodes.gpus(node);
        Node created = client.nodes().resource(nodes.simulated(node)).create();
        publishGpus(client, config, gpuDriver, created, gpus);
    }

    /** Publishes the node's GPUs as the simulated DRA driver's slice, when GPUs are offered through DRA. */
    private static void publishGpus(KubernetesClient client, LocalClusterConfig config, SimulatedGpuDriver gpuDriver,
                                    Node node, int gpus) {
        if (gpus > 0 && config.gpuApi().dra()) {
            client.resource(gpuDriver.nextSlice(node, gpus)).create();
        }
    }

    /**
     * For tests only: creates an object without the admission a real API server applies (CRD schemas, CEL
     * rules, pruning), as a cluster without Muster's CRDs installed or an older schema would have kept it, so
     * that tests can show what the controllers do with objects admission would refuse.
     *
     * @return the object as stored
     * @throws KubernetesClientException with the emulator's code if it cannot be stored (e.g. 409 if it exists)
     */
    public GenericKubernetesResource createWithoutAdmissionForTests(GenericKubernetesResource object) {
        String namespace = object.getMetadata().getNamespace() == null ? "default" : object.getMetadata().getNamespace();
        APIResource resource = client.getApiResources(object.getApiVersion()).getResources().stream()
                .filter(r -> r.getKind().equals(object.getKind()) && !r.getName().contains("/")).findFirst()
                .orElseThrow(() -> new KubernetesClientException("no resource of kind " + object.getKind()
                        + " in " + object.getApiVersion()));
        String path = (object.getApiVersion().contains("/") ? "/apis/" : "/api/") + object.getApiVersion()
                + (Boolean.FALSE.equals(resource.getNamespaced()) ? "" : "/namespaces/" + namespace) + "/"
                + resource.getName();
        MockResponse response = emulator.createWithoutAdmission(path, Serialization.jsonMapper().valueToTree(object));
        String body = response.getBody() == null ? "" : response.getBody().readUtf8();
        if (response.code() >= 300) {
            throw new KubernetesClientException("cannot create " + object.getKind() + " " + namespace + "/"
                    + object.getMetadata().getName() + ": " + body, response.code(), null);
        }
        return Serialization.unmarshal(body, GenericKubernetesResource.class);
    }

    /**
     * Stops the autoscaler, the quota, resourceclaim and disruption controllers, the kubelet, the client and the
     * emulator; the cluster's state is lost. Closing again does nothing.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            if (autoscaler != null) {
                autoscaler.close();
            }
            quotaController.close();
            claimController.close();
            disruptionController.close();
            kubelet.close();
            client.close();
        } finally {
            emulator.close();
        }
    }

    /** Cluster Autoscaler's ProvisioningRequest CRD, as the simulated autoscaler serves it. */
    static CustomResourceDefinition provisioningRequestCrd() {
        String resource = "provisioningrequests.autoscaling.x-k8s.io.yaml";
        try (InputStream yaml = LocalCluster.class.getResourceAsStream(resource)) {
            if (yaml == null) {
                throw new IllegalStateException("CRD " + resource + " is not on the classpath");
            }
            return Serialization.unmarshal(yaml, CustomResourceDefinition.class);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read CRD " + resource, e);
        }
    }

    private static CustomResourceDefinition generatedCrd(Class<? extends HasMetadata> type) {
        String resource = "/META-INF/fabric8/" + HasMetadata.getFullResourceName(type) + "-v1.yml";
        try (InputStream yaml = LocalCluster.class.getResourceAsStream(resource)) {
            if (yaml == null) {
                throw new IllegalStateException("generated CRD " + resource + " is not on the classpath");
            }
            return Serialization.unmarshal(yaml, CustomResourceDefinition.class);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read generated CRD " + resource, e);
        }
    }
}
