package dev.muster.api;

import dev.muster.api.batch.v1alpha1.Job;
import dev.muster.api.scheduling.v1alpha1.PodGroup;
import dev.muster.api.scheduling.v1alpha1.Queue;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every field of the generated CRDs is described, so that {@code kubectl explain mjob.spec.tasks} says what a field
 * means rather than {@code <no description>}: a field added without {@code @JsonPropertyDescription} fails here.
 */
class CrdDescriptionsTest {
    /**
     * Kubernetes' own types, embedded as fabric8's model generates them, without descriptions; the field that
     * embeds one is described, and Kubernetes documents the type.
     */
    private static final Set<String> KUBERNETES_TYPES = Set.of(
            "Job .status.controllerConditions", // metav1.Condition
            "Queue .spec.namespaceSelector", // metav1.LabelSelector
            "PodGroup .spec.subGroupPolicy[].labelSelector"); // metav1.LabelSelector

    @ParameterizedTest
    @ValueSource(classes = {Job.class, PodGroup.class, Queue.class})
    void theKindAndEveryFieldOfItsSpecAndStatusAreDescribed(Class<? extends HasMetadata> kind) throws IOException {
        JSONSchemaProps schema = schema(kind);
        List<String> undescribed = new ArrayList<>();
        if (isBlank(schema.getDescription())) {
            undescribed.add("(the kind)");
        }
        for (String root : List.of("spec", "status")) {
            assertThat(schema.getProperties()).as(kind.getSimpleName()).containsKey(root);
            collectUndescribed(kind.getSimpleName(), "." + root, schema.getProperties().get(root), undescribed);
        }
        assertThat(undescribed).as(kind.getSimpleName() + " fields without a description").isEmpty();
    }

    /**
     * Descriptions are what makes a CRD grow. {@code kubectl apply} (client-side) copies the whole object into its
     * {@code last-applied-configuration} annotation, and the API server refuses annotations above 256 KiB in all.
     * Half of that, so that a growing CRD is noticed while there is room to act.
     */
    @ParameterizedTest
    @ValueSource(classes = {Job.class, PodGroup.class, Queue.class})
    void theCrdLeavesRoomForClientSideApply(Class<? extends HasMetadata> kind) throws IOException {
        try (InputStream in = CrdDescriptionsTest.class.getResourceAsStream(resource(kind))) {
            assertThat(in.readAllBytes().length).as(resource(kind)).isLessThan(128 * 1024);
        }
    }

    private static void collectUndescribed(String kind, String path, JSONSchemaProps property, List<String> undescribed) {
        if (isBlank(property.getDescription())) {
            undescribed.add(path);
        }
        // Below these, the schema is not Muster's: pod templates and claim specs are kept as written.
        if (Boolean.TRUE.equals(property.getXKubernetesPreserveUnknownFields())
                || KUBERNETES_TYPES.contains(kind + " " + path)) {
            return;
        }
        JSONSchemaProps nested = property;
        String nestedPath = path;
        while (true) {
            String parent = nestedPath;
            if (nested.getProperties() != null) {
                nested.getProperties().forEach((name, field) ->
                        collectUndescribed(kind, parent + "." + name, field, undescribed));
            }
            if (nested.getItems() != null) {
                nested = nested.getItems().getSchema();
                nestedPath += "[]";
            } else if (nested.getAdditionalProperties() != null && nested.getAdditionalProperties().getSchema() != null) {
                nested = nested.getAdditionalProperties().getSchema();
                nestedPath += "{}";
            } else {
                return;
            }
        }
    }

    private static boolean isBlank(String description) {
        return description == null || description.isBlank();
    }

    private static JSONSchemaProps schema(Class<? extends HasMetadata> kind) throws IOException {
        try (InputStream in = CrdDescriptionsTest.class.getResourceAsStream(resource(kind))) {
            CustomResourceDefinition crd = Serialization.unmarshal(in, CustomResourceDefinition.class);
            return crd.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema();
        }
    }

    private static String resource(Class<? extends HasMetadata> kind) {
        return "/META-INF/fabric8/" + HasMetadata.getFullResourceName(kind) + "-v1.yml";
    }
}
