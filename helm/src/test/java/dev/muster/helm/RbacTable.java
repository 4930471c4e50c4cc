package dev.muster.helm;

import io.fabric8.kubernetes.api.model.rbac.PolicyRule;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The table of the section "RBAC" of {@code docs/security.md}: one row per role kind, API group, resource and set of verbs,
 * with why they are needed and how {@code RbacUsageEndToEndTest} checks them. Each permission is written
 * {@code "ClusterRole core pods create"} (the core group as {@code core}).
 */
final class RbacTable {
    static final Path FILE = Path.of("../docs/security.md");

    private RbacTable() {
    }

    /** Every permission of the table, to why it is needed. */
    static Map<String, String> read() throws IOException {
        Map<String, String> permissions = new TreeMap<>();
        boolean inRbac = false;
        for (String line : Files.readAllLines(FILE)) {
            if (line.startsWith("## ")) {
                inRbac = line.equals("## RBAC");
            }
            if (!inRbac || !line.startsWith("| `")) {
                continue;
            }
            String[] cells = line.split("\\|");
            assertThat(cells).as(line).hasSizeGreaterThanOrEqualTo(7);
            String why = cells[5].strip();
            String checked = cells[6].strip();
            assertThat(why).as("why, in " + line).hasSizeGreaterThan(20);
            assertThat(checked).as("how it is checked, in " + line).matches("recorded|not a request: .{10,}|rare path: .{10,}");
            for (String verb : cells[4].replace("`", "").split(",")) {
                String permission = String.join(" ", cell(cells[1]), cell(cells[2]), cell(cells[3]), verb.strip());
                assertThat(permissions.put(permission, why)).as("listed twice: " + permission).isNull();
            }
        }
        assertThat(permissions).as("the RBAC table of " + FILE).isNotEmpty();
        return permissions;
    }

    /** The rules as permissions of the table's form. */
    static List<String> permissions(String kind, List<PolicyRule> rules) {
        List<String> permissions = new ArrayList<>();
        for (PolicyRule rule : rules) {
            for (String group : rule.getApiGroups()) {
                for (String resource : rule.getResources()) {
                    for (String verb : rule.getVerbs()) {
                        permissions.add(String.join(" ", kind, group.isEmpty() ? "core" : group, resource, verb));
                    }
                }
            }
        }
        return permissions;
    }

    private static String cell(String cell) {
        return cell.strip().replace("`", "");
    }
}
