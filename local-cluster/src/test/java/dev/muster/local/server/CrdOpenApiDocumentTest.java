package dev.muster.local.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.local.protocol.Json;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The OpenAPI v3 document of CRD group-versions, as kube-apiserver builds it, from CRDs as plain JSON. */
class CrdOpenApiDocumentTest {
    private static final String CLUSTER_SCOPED = """
            spec:
              group: things.example.com
              names: {kind: Thing, plural: things}
              scope: Cluster
              versions:
              - name: v2
                served: true
                schema:
                  openAPIV3Schema:
                    type: object
                    properties:
                      metadata: {type: object, properties: {name: {type: string, maxLength: 5}}}
                      spec:
                        type: object
                        properties:
                          inner: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}
              - name: v1
                served: false
            """;

    @Test
    void schemaNamesReverseTheGroupAsKubeApiserversDo() {
        assertThat(CrdOpenApiDocument.schemaName("batch.muster.dev", "v1alpha1", "Job"))
                .isEqualTo("dev.muster.batch.v1alpha1.Job");
    }

    @Test
    void aClusterScopedKindGetsDefaultListKindKubeMetadataAndEmbeddedObjectsTheirTypeMeta() throws IOException {
        ObjectNode document = CrdOpenApiDocument.of("things.example.com", "v2", List.of(Json.parseYaml(CLUSTER_SCOPED)));

        JsonNode schemas = document.path("components").path("schemas");
        assertThat(schemas.has("com.example.things.v2.ThingList")).isTrue();
        JsonNode thing = schemas.path("com.example.things.v2.Thing");
        assertThat(thing.path("properties").path("metadata").has("properties")).isFalse();
        JsonNode inner = thing.path("properties").path("spec").path("properties").path("inner");
        assertThat(inner.path("properties").path("metadata").path("$ref").asText()).endsWith("v1.ObjectMeta");
        assertThat(inner.path("required").toString()).isEqualTo("[\"kind\",\"apiVersion\"]");
        JsonNode paths = document.path("paths");
        assertThat(paths.has("/apis/things.example.com/v2/things/{name}")).isTrue();
        assertThat(paths.path("/apis/things.example.com/v2/things/{name}").path("parameters").findValuesAsText("name"))
                .contains("name").doesNotContain("namespace");
        assertThat(paths.has("/apis/things.example.com/v2/things/{name}/status")).isFalse();
    }

    @Test
    void aVersionNotServedHasNoKinds() throws IOException {
        ObjectNode document = CrdOpenApiDocument.of("things.example.com", "v1", List.of(Json.parseYaml(CLUSTER_SCOPED)));

        assertThat(document.path("components").path("schemas").isEmpty()).isTrue();
        assertThat(document.path("paths").isEmpty()).isTrue();
    }
}
