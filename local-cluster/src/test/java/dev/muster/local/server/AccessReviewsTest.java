package dev.muster.local.server;

import dev.muster.local.Fixtures;
import dev.muster.local.LocalCluster;
import dev.muster.local.RawApi;
import io.fabric8.kubernetes.api.model.authentication.SelfSubjectReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * TokenReview and the SubjectAccessReviews, over HTTP through fabric8's typed clients and kubectl, decided by
 * the cluster's {@link ClusterAccess}. Its own cluster: the tests change the authorizer.
 */
@Tag("emulator")
class AccessReviewsTest {
    private static final ClusterAccess.User ALICE = new ClusterAccess.User("alice", "u-1", List.of("team-a", "system:authenticated"));
    private static LocalCluster cluster;
    private static RawApi api;

    @BeforeAll
    static void start() {
        cluster = LocalCluster.start(Fixtures.FAST.withNodes(0));
        api = new RawApi(cluster);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @AfterEach
    void allowAllAgain() {
        cluster.access().authorizeWith(ClusterAccess.ALLOW_ALL);
    }

    @Test
    void tokenReviewNamesTheUserOfAKnownTokenAndRefusesAnUnknownOne() {
        String token = cluster.access().mintToken(ALICE);

        TokenReview known = cluster.client().authentication().v1().tokenReviews().create(new TokenReviewBuilder()
                .withNewSpec().withToken(token).withAudiences("muster").endSpec().build());
        assertThat(known.getSpec().getToken()).isEqualTo(token);
        assertThat(known.getStatus().getAuthenticated()).isTrue();
        assertThat(known.getStatus().getUser().getUsername()).isEqualTo("alice");
        assertThat(known.getStatus().getUser().getUid()).isEqualTo("u-1");
        assertThat(known.getStatus().getUser().getGroups()).containsExactly("team-a", "system:authenticated");
        assertThat(known.getStatus().getAudiences()).containsExactly("muster");

        TokenReview unknown = cluster.client().authentication().v1().tokenReviews().create(new TokenReviewBuilder()
                .withNewSpec().withToken(token + "x").endSpec().build());
        assertThat(unknown.getStatus().getAuthenticated()).isFalse();
        assertThat(unknown.getStatus().getUser()).isNull();

        assertThat(api.post("/apis/authentication.k8s.io/v1/tokenreviews",
                new TokenReviewBuilder().withNewSpec().endSpec().build()).code()).isEqualTo(400);
    }

    @Test
    void subjectAccessReviewsAreDecidedByTheAuthorizerAllowingEverythingByDefault() {
        SubjectAccessReview listJobsInTeamB = new SubjectAccessReviewBuilder().withNewSpec().withUser("alice")
                .withGroups("team-a").withNewResourceAttributes().withVerb("list").withGroup("batch.muster.dev")
                .withResource("jobs").withNamespace("team-b").endResourceAttributes().endSpec().build();
        assertThat(cluster.client().authorization().v1().subjectAccessReview().create(listJobsInTeamB)
                .getStatus().getAllowed()).isTrue();

        List<ClusterAccess.Request> asked = new ArrayList<>();
        cluster.access().authorizeWith(request -> {
            asked.add(request);
            return request.user().groups().contains("team-a") && "team-a".equals(request.namespace());
        });
        SubjectAccessReview denied = cluster.client().authorization().v1().subjectAccessReview().create(listJobsInTeamB);
        assertThat(denied.getStatus().getAllowed()).isFalse();
        assertThat(denied.getSpec().getResourceAttributes().getNamespace()).as("the spec is echoed").isEqualTo("team-b");
        assertThat(asked).containsExactly(new ClusterAccess.Request(new ClusterAccess.User("alice", List.of("team-a")),
                "list", "batch.muster.dev", "jobs", "", "team-b", "", null));

        SubjectAccessReview metrics = new SubjectAccessReviewBuilder().withNewSpec().withUser("prometheus")
                .withNewNonResourceAttributes().withVerb("get").withPath("/actuator/prometheus")
                .endNonResourceAttributes().endSpec().build();
        assertThat(cluster.client().authorization().v1().subjectAccessReview().create(metrics).getStatus().getAllowed())
                .isFalse();
        assertThat(asked.get(1).path()).isEqualTo("/actuator/prometheus");
        assertThat(asked.get(1).isResourceRequest()).isFalse();
    }

    @Test
    void malformedReviewsAreRefusedAsTheApiServerRefusesThem() {
        var noSubject = api.post("/apis/authorization.k8s.io/v1/subjectaccessreviews", new SubjectAccessReviewBuilder()
                .withNewSpec().withNewResourceAttributes().withVerb("list").endResourceAttributes().endSpec().build());
        assertThat(noSubject.code()).isEqualTo(422);
        assertThat(noSubject.body().path("message").asText()).contains("at least one of user or group must be specified");

        var noAttributes = api.post("/apis/authorization.k8s.io/v1/subjectaccessreviews",
                new SubjectAccessReviewBuilder().withNewSpec().withUser("alice").endSpec().build());
        assertThat(noAttributes.code()).isEqualTo(422);

        assertThat(api.get("/apis/authorization.k8s.io/v1/subjectaccessreviews").code()).as("create-only").isEqualTo(405);
    }

    @Test
    void aSelfReviewAsksAboutTheUserOfTheRequestsBearerToken() {
        String token = cluster.access().mintToken(ALICE);
        cluster.access().authorizeWith(request -> request.user().name().equals("alice"));
        var review = new SelfSubjectAccessReviewBuilder().withNewSpec().withNewResourceAttributes().withVerb("list")
                .withResource("pods").endResourceAttributes().endSpec().build();

        try (KubernetesClient alice = client(token); KubernetesClient stranger = client("not-a-token")) {
            assertThat(alice.authorization().v1().selfSubjectAccessReview().create(review).getStatus().getAllowed())
                    .isTrue();
            assertThat(cluster.client().authorization().v1().selfSubjectAccessReview().create(review).getStatus()
                    .getAllowed()).as("anonymous").isFalse();
            assertThatThrownBy(() -> stranger.authorization().v1().selfSubjectAccessReview().create(review))
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(401));
            // kubectl auth whoami
            assertThat(alice.authentication().v1().selfSubjectReviews().create(new SelfSubjectReview()).getStatus()
                    .getUserInfo().getUsername()).isEqualTo("alice");
        }
    }

    @Test
    void discoveryListsTheReviewsAsCreateOnly() {
        var authentication = cluster.client().getApiResources("authentication.k8s.io/v1").getResources();
        assertThat(authentication).anySatisfy(r -> {
            assertThat(r.getName()).isEqualTo("tokenreviews");
            assertThat(r.getVerbs()).containsExactly("create");
        });
        var authorization = cluster.client().getApiResources("authorization.k8s.io/v1").getResources();
        assertThat(authorization).extracting(r -> r.getName()).contains("subjectaccessreviews",
                "selfsubjectaccessreviews", "localsubjectaccessreviews");
    }

    /**
     * kubectl asks with a SelfSubjectAccessReview (in protobuf); by default the local cluster allows everything.
     * (It asks as {@code system:anonymous}: client-go sends no credentials over plain HTTP.)
     */
    @Test
    void kubectlAuthCanISaysYes(@TempDir Path dir) throws Exception {
        boolean onPath = System.getenv("PATH") != null && java.util.Arrays.stream(System.getenv("PATH")
                .split(File.pathSeparator)).anyMatch(p -> new File(p, "kubectl").canExecute());
        if (!"true".equals(System.getenv("CI"))) {
            assumeTrue(onPath, "kubectl is not on the PATH");
        }
        Path kubeconfig = cluster.writeKubeconfig(dir.resolve("kubeconfig"));
        Process kubectl = new ProcessBuilder("kubectl", "--kubeconfig", kubeconfig.toString(), "auth", "can-i",
                "list", "jobs.batch.muster.dev", "-n", "team-a").redirectErrorStream(true).start();
        assertThat(kubectl.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = new String(kubectl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(out.strip()).isEqualTo("yes");
        assertThat(kubectl.exitValue()).isZero();
    }

    private static KubernetesClient client(String token) {
        Config config = new ConfigBuilder(Config.empty()).withMasterUrl(cluster.url()).withOauthToken(token).build();
        return new KubernetesClientBuilder().withConfig(config).build();
    }
}
