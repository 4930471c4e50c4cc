package dev.muster.rendering.plugin;

import dev.muster.api.batch.v1alpha1.validation.FieldError;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A plugin's CLI-style arguments, read as Go's flag package reads Volcano's: {@code --name=value},
 * {@code -name=value}, {@code --name value} for an argument that takes a value (the next argument, whatever
 * it starts with, as a PEM key's {@code -----BEGIN}), and {@code --name} alone for a switch, whose value may be
 * spelt as Go's {@code strconv.ParseBool} accepts ({@code 1}, {@code t}, {@code TRUE}, ...). A pure function of
 * the list in {@code spec.plugins}.
 *
 * <p>An argument may hold a secret ({@code --ssh-private-key}), and its errors go to the Job's status, an
 * Event, the log and the dashboard: an error names the argument by its name when that is a plain flag name,
 * else by its position, and never repeats a value.
 *
 * @param values the value of each argument given; a switch given alone maps to {@code "true"}
 */
public record PluginArgs(Map<String, String> values) {
    /** The spellings of a bool Go's flag package (strconv.ParseBool) accepts, which Volcano's plugins use. */
    private static final Map<String, String> GO_BOOLS = Map.ofEntries(
            Map.entry("true", "true"), Map.entry("True", "true"), Map.entry("TRUE", "true"), Map.entry("t", "true"),
            Map.entry("T", "true"), Map.entry("1", "true"),
            Map.entry("false", "false"), Map.entry("False", "false"), Map.entry("FALSE", "false"), Map.entry("f", "false"),
            Map.entry("F", "false"), Map.entry("0", "false"));

    /** What an argument's name looks like; anything else may be a value given in the wrong place, not shown. */
    private static final Pattern FLAG_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,62}");

    /** No arguments: every plugin's defaults. */
    public static final PluginArgs NONE = new PluginArgs(Map.of());

    /**
     * Reads {@code raw}; every argument not in {@code switches} or {@code valued}, a value missing, or a
     * switch given a value other than true/false is an error at {@code spec.plugins.<plugin>}.
     */
    public static PluginArgs parse(String plugin, List<String> raw, Set<String> switches, Set<String> valued,
                                   List<FieldError> errors) {
        String path = "spec.plugins." + plugin;
        Map<String, String> values = new LinkedHashMap<>();
        List<String> args = raw == null ? List.of() : raw;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg == null || !arg.startsWith("-") || arg.equals("-") || arg.equals("--")) {
                errors.add(new FieldError(path, position(i) + " is not of the form --name=value"));
                continue;
            }
            String body = arg.startsWith("--") ? arg.substring(2) : arg.substring(1);
            int eq = body.indexOf('=');
            String name = eq < 0 ? body : body.substring(0, eq);
            String value = eq < 0 ? null : body.substring(eq + 1);
            if (switches.contains(name)) {
                String bool = value == null ? "true" : GO_BOOLS.get(value);
                if (bool == null) {
                    errors.add(new FieldError(path, "argument --" + name + " is a switch; its value must be true or false"));
                    continue;
                }
                values.put(name, bool);
            } else if (valued.contains(name)) {
                if (value == null) {
                    if (i + 1 >= args.size() || args.get(i + 1) == null) {
                        errors.add(new FieldError(path, "argument --" + name + " needs a value"));
                        continue;
                    }
                    value = args.get(++i);
                }
                values.put(name, value);
            } else {
                errors.add(new FieldError(path, (FLAG_NAME.matcher(name).matches() ? "unknown argument --" + name
                        : position(i) + " is not a known argument") + "; known: " + known(switches, valued)));
            }
        }
        return new PluginArgs(Map.copyOf(values));
    }

    /** The argument's value, if given. */
    public Optional<String> value(String name) {
        return Optional.ofNullable(values.get(name));
    }

    /** The argument's value, or {@code fallback} if not given. */
    public String value(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    /** Whether the switch was given (and not as {@code =false}). */
    public boolean isSet(String name) {
        return "true".equals(values.get(name));
    }

    /** The switch's value: {@code fallback} unless given, as a Go bool flag with that default. */
    public boolean isSet(String name, boolean fallback) {
        return values.containsKey(name) ? "true".equals(values.get(name)) : fallback;
    }

    /** The argument at index {@code i}, by position only: its text may be a secret given in the wrong place. */
    private static String position(int i) {
        return "argument " + (i + 1) + " (not shown, as it may hold a secret)";
    }

    private static String known(Set<String> switches, Set<String> valued) {
        List<String> names = new ArrayList<>(valued);
        names.addAll(switches);
        if (names.isEmpty()) {
            return "none";
        }
        return String.join(", ", names.stream().sorted().map(n -> "--" + n).toList());
    }
}
