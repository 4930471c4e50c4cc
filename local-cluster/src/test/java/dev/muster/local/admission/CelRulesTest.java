package dev.muster.local.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.muster.local.protocol.FieldError;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link CelRules} on its own: how the API server runs {@code x-kubernetes-validations}. */
class CelRulesTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @Test
    void everyRuleOfMustersGeneratedCrdsCompilesAsTheApiServerRequiresOfACrd() throws IOException {
        for (String crd : List.of("jobs.batch.muster.dev-v1.yml", "podgroups.scheduling.muster.dev-v1.yml")) {
            try (InputStream in = CelRulesTest.class.getResourceAsStream("/META-INF/fabric8/" + crd)) {
                JsonNode schema = YAML.readTree(in).at("/spec/versions/0/schema/openAPIV3Schema");

                assertThat(CelRules.compile(schema).uncompilable()).as(crd).isEmpty();
            }
        }
        assertThat(CelRules.compile(yaml("{type: string, x-kubernetes-validations: [{rule: 'self ==='}]}")).uncompilable())
                .singleElement().asString().startsWith("self ===: ");
    }

    @Test
    void theKubernetesListFunctionsSumMinAndMaxWorkOnIntegersAndDoublesAsInTheApiServer() {
        CelRules rules = CelRules.compile(yaml("{type: object, x-kubernetes-validations: ["
                + "{rule: 'self.parts.map(p, p.size).sum() <= self.limit', message: too big}, "
                + "{rule: 'self.weights.sum() == 1.0', message: weights must add up to 1}, "
                + "{rule: 'self.parts.map(p, p.size).min() >= 1 && self.parts.map(p, p.size).max() <= 4', message: out of range}]}"));

        assertThat(rules.validate("spec", yaml("{limit: 6, parts: [{size: 1}, {size: 4}], weights: [0.25, 0.75]}"), null))
                .isEmpty();
        assertThat(rules.validate("spec", yaml("{limit: 4, parts: [{size: 1}, {size: 4}], weights: [0.5, 0.75]}"), null))
                .extracting(FieldError::toString).containsExactly(
                        "spec: Invalid value: \"object\": too big",
                        "spec: Invalid value: \"object\": weights must add up to 1");
        assertThat(rules.validate("spec", yaml("{limit: 9, parts: [{size: 0}, {size: 5}], weights: [1.0]}"), null))
                .extracting(FieldError::toString).containsExactly("spec: Invalid value: \"object\": out of range");
        assertThat(rules.validate("spec", yaml("{limit: 0, parts: [], weights: [1.0]}"), null))
                .extracting(FieldError::toString).singleElement().asString()
                .startsWith("spec: Invalid value: \"object\": rule evaluation error: ").contains("min called on empty list");
        assertThat(rules.validate("spec", yaml("{limit: 0, parts: [{size: 9223372036854775807}, {size: 1}], weights: [1.0]}"),
                null)).extracting(FieldError::toString).first().asString().contains("integer overflow");
    }

    @Test
    void aTransitionRuleSeesTheOldItemOfAMapListByItsKeysAndNoneOfOtherListsAsTheApiServerCorrelates() {
        String item = "{type: object, properties: {name: {type: string}, size: {type: integer, "
                + "x-kubernetes-validations: [{rule: 'self >= oldSelf', message: may only grow}]}}}";
        CelRules mapList = CelRules.compile(yaml("{type: array, x-kubernetes-list-type: map, "
                + "x-kubernetes-list-map-keys: [name], items: " + item + "}"));
        CelRules plainList = CelRules.compile(yaml("{type: array, items: " + item + "}"));
        JsonNode before = yaml("[{name: a, size: 2}, {name: b, size: 5}]");
        JsonNode after = yaml("[{name: b, size: 4}, {name: a, size: 3}]");

        assertThat(mapList.validate("spec.parts", after, before)).extracting(FieldError::toString)
                .containsExactly("spec.parts[0].size: Invalid value: \"integer\": may only grow");
        assertThat(plainList.validate("spec.parts", after, before)).isEmpty();
    }

    @Test
    void aRuleIsNotRecheckedOnAnUnchangedValueAsTheApiServerRatchets() {
        CelRules rules = CelRules.compile(yaml("{type: object, properties: {size: {type: integer, "
                + "x-kubernetes-validations: [{rule: 'self < 10'}]}}}"));

        assertThat(rules.validate("spec", yaml("{size: 20}"), null)).extracting(FieldError::toString)
                .containsExactly("spec.size: Invalid value: \"integer\": failed rule: self < 10");
        assertThat(rules.validate("spec", yaml("{size: 20}"), yaml("{size: 20}"))).isEmpty();
        assertThat(rules.validate("spec", yaml("{size: 30}"), yaml("{size: 20}"))).hasSize(1);
    }

    @Test
    void aMessageExpressionWinsOverTheMessageAndFallsBackToItWhereItFailsAsTheApiServerReportsThem() {
        CelRules rules = CelRules.compile(yaml("{type: object, properties: {"
                + "size: {type: integer, x-kubernetes-validations: [{rule: 'self < 10', message: too big, "
                + "messageExpression: \"'size ' + string(self) + ' is above 9'\"}]}, "
                + "name: {type: string, x-kubernetes-validations: [{rule: 'self != \"x\"', message: not x, "
                + "messageExpression: 'self.size() / 0'}]}}}"));

        assertThat(rules.validate("spec", yaml("{size: 20, name: x}"), null)).extracting(FieldError::toString)
                .containsExactlyInAnyOrder("spec.size: Invalid value: \"integer\": size 20 is above 9",
                        "spec.name: Invalid value: \"string\": not x");
    }

    private static JsonNode yaml(String text) {
        try {
            return YAML.readTree(text);
        } catch (IOException e) {
            throw new IllegalArgumentException(text, e);
        }
    }
}
