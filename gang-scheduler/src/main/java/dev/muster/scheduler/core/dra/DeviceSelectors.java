package dev.muster.scheduler.core.dra;

import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * CEL selectors over a device, as DRA evaluates them: {@code device.driver},
 * {@code device.attributes["domain"].id} and {@code device.capacity["domain"].id}. Each expression is
 * compiled once for the life of the process; the verdict per device is cached by the
 * {@link DeviceInventory} of a cycle.
 *
 * <p>Differences from the API server, said in {@code docs/dra.md}: {@code device} is dynamically typed,
 * a version attribute is a string (no {@code semver()}), a capacity is an integer in its base unit (no
 * {@code quantity()}), and a selector whose evaluation fails selects nothing (kube-scheduler fails the
 * allocation with the error instead; either way the device is not allocated).
 */
public final class DeviceSelectors {
    private static final CelOptions OPTIONS = CelOptions.current().build();
    private static final CelCompiler COMPILER = CelCompilerFactory.standardCelCompilerBuilder()
            .setOptions(OPTIONS)
            .addVar("device", SimpleType.DYN)
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addLibraries(CelExtensions.strings(), CelExtensions.sets(OPTIONS))
            .build();
    private static final CelRuntime RUNTIME = CelRuntimeFactory.standardCelRuntimeBuilder()
            .setOptions(OPTIONS)
            .addLibraries(CelExtensions.strings(), CelExtensions.sets(OPTIONS))
            .build();
    private static final Map<String, Compiled> PROGRAMS = new ConcurrentHashMap<>();

    private DeviceSelectors() {
    }

    /** Why the expression does not compile, or {@code null} if it does. */
    public static String compileError(String expression) {
        return compiled(expression).error();
    }

    /** Whether the device passes the selector; a selector that does not compile or fails passes no device. */
    public static boolean matches(String expression, Device device) {
        Compiled compiled = compiled(expression);
        if (compiled.program() == null) {
            return false;
        }
        try {
            return Boolean.TRUE.equals(compiled.program().eval(Map.of("device", celView(device))));
        } catch (CelEvaluationException e) {
            return false;
        }
    }

    private static Compiled compiled(String expression) {
        return PROGRAMS.computeIfAbsent(expression, text -> {
            try {
                return new Compiled(RUNTIME.createProgram(COMPILER.compile(text).getAst()), null);
            } catch (CelValidationException | CelEvaluationException e) {
                return new Compiled(null, e.getMessage());
            }
        });
    }

    /** The device as the CEL variable {@code device}: attribute and capacity maps keyed by domain, then id. */
    private static Map<String, Object> celView(Device device) {
        return Map.of("driver", device.driver(), "attributes", byDomain(device.attributes()),
                "capacity", byDomain(device.capacity()));
    }

    private static Map<String, Map<String, Object>> byDomain(Map<String, ?> qualified) {
        Map<String, Map<String, Object>> domains = new HashMap<>();
        qualified.forEach((name, value) -> {
            int slash = name.lastIndexOf('/');
            domains.computeIfAbsent(name.substring(0, slash), domain -> new HashMap<>())
                    .put(name.substring(slash + 1), value);
        });
        return domains;
    }

    private record Compiled(CelRuntime.Program program, String error) {
    }
}
