package dev.muster.local;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.Architectures;
import dev.muster.local.node.WrongArrow;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The package arrows of the local cluster, as its package-infos describe them. Two sides under the entry point
 * ({@code LocalCluster}): the API server (server, then quota, then admission, disruption and fault, then store, then protocol)
 * and the simulated cluster around it (autoscaler, then node, then dra, then informer), which reaches the server
 * only through a Kubernetes client, never through its classes.
 */
class PackageArrowsTest {
    private static final String ROOT = "dev.muster.local";
    /** Imported once for all three tests: reading the module's classes is most of their time. */
    private static final JavaClasses PRODUCTION = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages(ROOT);

    static ArchRule layering() {
        return Architectures.layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("entry").definedBy(ROOT)
                .layer("server").definedBy(ROOT + ".server..")
                .layer("admission").definedBy(ROOT + ".admission..")
                .layer("disruption").definedBy(ROOT + ".disruption..")
                .layer("quota").definedBy(ROOT + ".quota..")
                .layer("fault").definedBy(ROOT + ".fault..")
                .layer("store").definedBy(ROOT + ".store..")
                .layer("protocol").definedBy(ROOT + ".protocol..")
                .layer("autoscaler").definedBy(ROOT + ".autoscaler..")
                .layer("node").definedBy(ROOT + ".node..")
                .layer("dra").definedBy(ROOT + ".dra..")
                .layer("informer").definedBy(ROOT + ".informer..")
                .layer("manifest").definedBy(ROOT + ".manifest..")
                .whereLayer("entry").mayNotBeAccessedByAnyLayer()
                .whereLayer("server").mayOnlyBeAccessedByLayers("entry")
                .whereLayer("admission").mayOnlyBeAccessedByLayers("entry", "server", "quota")
                .whereLayer("disruption").mayOnlyBeAccessedByLayers("entry", "server")
                .whereLayer("quota").mayOnlyBeAccessedByLayers("entry", "server")
                .whereLayer("fault").mayOnlyBeAccessedByLayers("entry", "server")
                .whereLayer("store").mayOnlyBeAccessedByLayers("entry", "server", "disruption", "quota")
                .whereLayer("protocol").mayOnlyBeAccessedByLayers("entry", "server", "admission", "disruption",
                        "fault", "store", "quota")
                .whereLayer("autoscaler").mayOnlyBeAccessedByLayers("entry")
                .whereLayer("node").mayOnlyBeAccessedByLayers("entry", "autoscaler")
                .whereLayer("dra").mayOnlyBeAccessedByLayers("entry", "node")
                .whereLayer("informer").mayOnlyBeAccessedByLayers("autoscaler", "node", "dra", "disruption", "quota")
                .whereLayer("manifest").mayNotBeAccessedByAnyLayer();
    }

    static ArchRule noCycles() {
        return slices().matching(ROOT + ".(*)..").should().beFreeOfCycles();
    }

    @Test
    void everyPackageUsesOnlyTheLayersBelowIt() {
        layering().check(PRODUCTION);
    }

    @Test
    void noTwoPackagesUseEachOther() {
        noCycles().check(PRODUCTION);
    }

    @Test
    void theRulesCatchAnArrowTheWrongWay() {
        // A positive control: a class of the simulated side that reaches into the server and back.
        JavaClasses withAWrongArrow = new ClassFileImporter().importPackages(ROOT)
                .that(DescribedPredicate.describe("production classes and WrongArrow",
                        type -> type.isEquivalentTo(WrongArrow.class) || PRODUCTION.contain(type.getName())));

        assertThat(layering().evaluate(withAWrongArrow).getFailureReport().getDetails())
                .anyMatch(line -> line.contains("WrongArrow") && line.contains("ServedResources"));
    }
}
