package dev.muster.manager.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.muster.support.docs.GeneratedDocSection;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code docs/configuration.md} lists every {@code muster.*} setting between two markers, generated from
 * {@link MusterProperties}: the keys and descriptions from the metadata Spring Boot's configuration processor
 * writes from its javadoc, the defaults from binding no properties at all. This test fails when the two drift
 * apart. To regenerate the table after changing a setting:
 * {@code ./mvnw -o -q -pl manager -am test -Dtest=ConfigurationDocTest -Dsurefire.failIfNoSpecifiedTests=false -Dmuster.docs.write=true}.
 */
class ConfigurationDocTest {
    private static final Path DOC = Path.of("..", "docs", "configuration.md");
    private static final String BEGIN = "<!-- BEGIN SETTINGS: generated from MusterProperties by ConfigurationDocTest -->";
    private static final String END = "<!-- END SETTINGS -->";

    @Test
    void theDocumentedTableIsTheSettingsWithTheirDefaults() throws IOException {
        GeneratedDocSection.check(DOC, BEGIN, END, table());
    }

    @Test
    void everySettingHasADescription() throws IOException {
        Map<String, JsonNode> metadata = metadata();
        List<String> leaves = leaves("muster", MusterProperties.class);

        assertThat(metadata.keySet()).containsExactlyInAnyOrderElementsOf(leaves);
        metadata.forEach((name, property) -> assertThat(property.path("description").asText())
                .as("javadoc @param of %s", name).isNotBlank());
    }

    static String table() throws IOException {
        MusterProperties defaults = bindNothing();
        MusterProperties again = bindNothing();
        StringBuilder table = new StringBuilder("| setting | default | meaning |\n|---|---|---|\n");
        for (Map.Entry<String, JsonNode> entry : metadata().entrySet()) {
            String name = entry.getKey();
            Object value = valueOf(defaults, name);
            // A default drawn anew for every process (the Lease identity) is named, not shown.
            String shown = Objects.equals(value, valueOf(again, name)) ? format(value) : "random per start";
            table.append("| `").append(name).append("` | ").append(shown).append(" | ")
                    .append(markdown(entry.getValue().path("description").asText())).append(" |\n");
        }
        return table.toString();
    }

    private static MusterProperties bindNothing() {
        return new Binder(new MapConfigurationPropertySource(Map.of()))
                .bindOrCreate("muster", MusterProperties.class);
    }

    /** The {@code muster.*} properties of the processor's metadata, in key order. */
    private static Map<String, JsonNode> metadata() throws IOException {
        try (InputStream in = ConfigurationDocTest.class.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("the configuration processor's metadata").isNotNull();
            Map<String, JsonNode> properties = new TreeMap<>();
            for (JsonNode property : new ObjectMapper().readTree(in).path("properties")) {
                String name = property.path("name").asText();
                if (name.startsWith("muster.")) {
                    properties.put(name, property);
                }
            }
            return properties;
        }
    }

    /** Every leaf property of a settings record, as {@code prefix.kebab-name}. */
    private static List<String> leaves(String prefix, Class<?> type) {
        List<String> names = new ArrayList<>();
        for (RecordComponent component : type.getRecordComponents()) {
            String name = prefix + "." + kebab(component.getName());
            if (component.getType().isRecord()) {
                names.addAll(leaves(name, component.getType()));
            } else {
                names.add(name);
            }
        }
        return names;
    }

    /** The bound value of {@code muster.group.key}. */
    private static Object valueOf(MusterProperties properties, String name) {
        Object value = properties;
        for (String part : name.substring("muster.".length()).split("\\.")) {
            value = component(value, part);
        }
        return value;
    }

    private static Object component(Object record, String kebabName) {
        for (RecordComponent component : record.getClass().getRecordComponents()) {
            if (kebab(component.getName()).equals(kebabName)) {
                try {
                    return component.getAccessor().invoke(record);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        throw new IllegalArgumentException("no setting " + kebabName + " in " + record.getClass().getSimpleName());
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    /** A default as one would write it in application.yaml. */
    static String format(Object value) {
        if (value == null || value instanceof Collection<?> values && values.isEmpty()) {
            return "(none)";
        }
        if (value instanceof Duration duration) {
            return "`" + (duration.toMillis() % 1000 == 0 ? duration.toSeconds() + "s" : duration.toMillis() + "ms") + "`";
        }
        if (value instanceof Enum<?> constant) {
            return "`" + constant.name().toLowerCase(Locale.ROOT).replace('_', '-') + "`";
        }
        return "`" + value + "`";
    }

    private static String markdown(String javadoc) {
        return javadoc.replaceAll("\\{@code ([^}]*)}", "`$1`").replaceAll("\\{@link ([^}]*)}", "`$1`")
                .replace("|", "\\|").replaceAll("\\s+", " ").trim();
    }
}
