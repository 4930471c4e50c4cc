package dev.muster.helm;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.io.ByteArrayInputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Renders the chart assembled by the build ({@code target/chart/muster}) with {@code helm template}. */
final class ChartRenderer {
    static final String RELEASE = "muster";
    static final String NAMESPACE = "muster-system";
    /** helm-java renders for Kubernetes v1.20 unless told; the chart needs 1.25 (CEL rules in the CRDs). */
    static final String KUBE_VERSION = "v1.30.0";

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private ChartRenderer() {
    }

    /** The assembled chart: Maven passes its path; run from an IDE, the module's target/ is assumed. */
    static Path chartDirectory() {
        Path chart = Path.of(System.getProperty("muster.chart.directory", "target/chart/muster"));
        if (!Files.isRegularFile(chart.resolve("Chart.yaml"))) {
            throw new IllegalStateException("no assembled chart at " + chart.toAbsolutePath()
                    + "; run ./mvnw -pl helm -am process-test-classes first");
        }
        return chart;
    }

    /** The hand-written chart sources (helm/muster), without the CRDs the build adds. */
    static Path sourceDirectory() {
        return Path.of(System.getProperty("muster.chart.source", "muster"));
    }

    static Helm helm() {
        return new Helm(chartDirectory());
    }

    /** {@code helm template muster <chart> -n muster-system --set k=v ...}: the templates, not crds/. */
    static Rendered render(Map<String, Object> values) {
        return new Rendered(template(helm(), values));
    }

    static String template(Helm helm, Map<String, Object> values) {
        TemplateCommand template = helm.template().withName(RELEASE).withNamespace(NAMESPACE)
                .withKubeVersion(KUBE_VERSION);
        values.forEach(template::set);
        return template.call();
    }

    static Rendered render() {
        return render(Map.of());
    }

    /**
     * {@code helm show crds}: the CRD files as Helm loads them from the chart's crds/ directory (the ones
     * {@code helm install} applies before the templates), each file's text followed by a newline.
     * helm-java's template, like {@code helm template} without {@code --include-crds}, leaves them out.
     */
    static String crds() {
        return helm().show().crds().call();
    }

    /** The rendered manifests, as text and as fabric8 objects. */
    record Rendered(String yaml, List<HasMetadata> objects) {
        Rendered(String yaml) {
            this(yaml, parse(yaml));
        }

        List<HasMetadata> ofKind(String kind) {
            return objects.stream().filter(o -> kind.equals(o.getKind())).toList();
        }

        <T extends HasMetadata> T one(Class<T> type) {
            List<T> matching = objects.stream().filter(type::isInstance).map(type::cast).toList();
            if (matching.size() != 1) {
                throw new AssertionError("expected one " + type.getSimpleName() + ", found " + matching.size());
            }
            return matching.get(0);
        }

        <T extends HasMetadata> Optional<T> find(Class<T> type) {
            return objects.stream().filter(type::isInstance).map(type::cast).findFirst();
        }
    }

    static List<HasMetadata> parse(String yaml) {
        Object parsed = SERIALIZATION.unmarshal(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)));
        List<HasMetadata> objects = new ArrayList<>();
        if (parsed instanceof List<?> list) {
            list.stream().filter(HasMetadata.class::isInstance).map(HasMetadata.class::cast).forEach(objects::add);
        } else if (parsed instanceof HasMetadata one) {
            objects.add(one);
        }
        return objects;
    }

    /**
     * Paths of fields the fabric8 model did not know (it keeps them in additionalProperties instead of
     * failing), so a misspelt field in a template, which the API server would drop or reject, shows up.
     */
    static List<String> unknownFields(Object object) {
        List<String> found = new ArrayList<>();
        collectUnknownFields(object, object instanceof HasMetadata h ? h.getKind() : "", found,
                Collections.newSetFromMap(new IdentityHashMap<>()));
        return found;
    }

    private static void collectUnknownFields(Object object, String path, List<String> found, Set<Object> seen) {
        if (object == null || !seen.add(object)) {
            return;
        }
        if (object instanceof Iterable<?> items) {
            int i = 0;
            for (Object item : items) {
                collectUnknownFields(item, path + "[" + i++ + "]", found, seen);
            }
            return;
        }
        if (object instanceof Map<?, ?> map) {
            map.forEach((k, v) -> collectUnknownFields(v, path + "." + k, found, seen));
            return;
        }
        if (!object.getClass().getPackageName().startsWith("io.fabric8.kubernetes.api.model")) {
            return;
        }
        for (Method getter : object.getClass().getMethods()) {
            if (getter.getParameterCount() != 0 || !getter.getName().startsWith("get")
                    || getter.getDeclaringClass() == Object.class) {
                continue;
            }
            Object value;
            try {
                value = getter.invoke(object);
            } catch (ReflectiveOperationException e) {
                continue;
            }
            if (getter.getName().equals("getAdditionalProperties")) {
                if (value instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    found.add(path + " " + extra.keySet());
                }
            } else {
                collectUnknownFields(value, path + "." + getter.getName().substring(3), found, seen);
            }
        }
    }

    static <T> T parse(String yaml, Class<T> type) {
        return SERIALIZATION.unmarshal(yaml, type);
    }
}
