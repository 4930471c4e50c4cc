package dev.muster.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.io.PrintWriter;

/** The {@code -o} of commands that show objects; constants are named as they are typed. */
enum OutputFormat {
    table, json, yaml;

    /** Writes {@code object} as JSON (indented, as kubectl does) or YAML; not for {@link #table}. */
    void write(PrintWriter out, KubernetesSerialization serialization, Object object) {
        switch (this) {
            case json -> out.println(serialization.convertValue(object, JsonNode.class)
                    .toPrettyString());
            case yaml -> out.print(serialization.asYaml(object));
            case table -> throw new IllegalStateException("a table is printed by its command");
        }
    }
}
