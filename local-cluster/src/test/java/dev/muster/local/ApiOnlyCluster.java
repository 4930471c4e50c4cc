package dev.muster.local;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Supplies a {@link LocalCluster} parameter to {@code @BeforeAll} methods: one cluster without nodes, shared by
 * the test classes that exercise only the API emulator ({@link ApiOnlyClusterTests}), started on first use and
 * closed after the last test.
 * Classes sharing it name their objects uniquely.
 */
final class ApiOnlyCluster implements ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(ApiOnlyCluster.class);

    private record Shared(LocalCluster cluster) implements AutoCloseable {
        @Override
        public void close() {
            cluster.close();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == LocalCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE)
                .computeIfAbsent(Shared.class, key -> new Shared(LocalCluster.start(Fixtures.FAST.withNodes(0))), Shared.class)
                .cluster();
    }
}
