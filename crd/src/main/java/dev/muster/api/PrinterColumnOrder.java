package dev.muster.api;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Puts each CRD's printer columns in the order their {@link AdditionalPrinterColumn} annotations are declared on
 * the kind (run by {@link GeneratedCrds} after the CRD generator), because the generator sorts them by
 * name (fabric8io/kubernetes-client#3974), and {@code kubectl get mjob} would show {@code AGE FAILED MIN ...}.
 * kubectl shows columns in the CRD's order; the kinds declare them as kubectl's built-in kinds show theirs:
 * the phase first, then counts, {@code AGE} last.
 */
public final class PrinterColumnOrder {
    private PrinterColumnOrder() {
    }

    /** The kind's column names, in the order its annotations declare them. */
    public static List<String> declaredOrder(Class<?> kind) {
        return Arrays.stream(kind.getAnnotationsByType(AdditionalPrinterColumn.class))
                .map(AdditionalPrinterColumn::name).toList();
    }

    static void reorder(CustomResourceDefinition crd, List<String> order) {
        for (CustomResourceDefinitionVersion version : crd.getSpec().getVersions()) {
            List<CustomResourceColumnDefinition> columns = version.getAdditionalPrinterColumns();
            if (columns == null) {
                continue;
            }
            for (CustomResourceColumnDefinition column : columns) {
                if (!order.contains(column.getName())) {
                    throw new IllegalStateException("column " + column.getName() + " of " + crd.getMetadata().getName()
                            + " has no annotation");
                }
            }
            columns.sort(Comparator.comparingInt(column -> order.indexOf(column.getName())));
        }
    }
}
