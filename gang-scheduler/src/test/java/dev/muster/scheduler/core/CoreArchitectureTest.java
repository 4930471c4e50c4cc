package dev.muster.scheduler.core;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The placement core's layout (see {@code package-info.java} of {@code dev.muster.scheduler.core}): its
 * packages depend on each other one way, model ← dra ← cluster ← placement ← queue ← preemption ← cycle,
 * and the core stays pure: no fabric8, no Spring, none of the scheduler's adapters.
 */
class CoreArchitectureTest {
    private static final String CORE = "dev.muster.scheduler.core";
    private static final JavaClasses CORE_CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(CORE);

    @Test
    void everyCoreClassIsInOneOfTheLayers() {
        classes().that().resideInAPackage(CORE + "..").and().doNotHaveSimpleName("package-info")
                .should().resideInAnyPackage(CORE + ".model", CORE + ".dra", CORE + ".cluster", CORE + ".placement",
                        CORE + ".queue", CORE + ".preemption", CORE + ".cycle")
                .check(CORE_CLASSES);
    }

    @Test
    void thePackagesOfTheCoreFormNoCycle() {
        slices().matching(CORE + ".(*)..").should().beFreeOfCycles().check(CORE_CLASSES);
    }

    @Test
    void eachPackageUsesOnlyThoseBelowIt() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("model").definedBy(CORE + ".model..")
                .layer("dra").definedBy(CORE + ".dra..")
                .layer("cluster").definedBy(CORE + ".cluster..")
                .layer("placement").definedBy(CORE + ".placement..")
                .layer("queue").definedBy(CORE + ".queue..")
                .layer("preemption").definedBy(CORE + ".preemption..")
                .layer("cycle").definedBy(CORE + ".cycle..")
                .whereLayer("cycle").mayNotBeAccessedByAnyLayer()
                .whereLayer("preemption").mayOnlyBeAccessedByLayers("cycle")
                .whereLayer("queue").mayOnlyBeAccessedByLayers("preemption", "cycle")
                .whereLayer("placement").mayOnlyBeAccessedByLayers("queue", "preemption", "cycle")
                .whereLayer("cluster").mayOnlyBeAccessedByLayers("placement", "queue", "preemption", "cycle")
                .whereLayer("dra").mayOnlyBeAccessedByLayers("cluster", "placement", "queue", "preemption", "cycle")
                .check(CORE_CLASSES);
    }

    @Test
    void theCoreUsesNoKubernetesClientNoSpringAndNoAdapter() {
        noClasses().that().resideInAPackage(CORE + "..")
                .should().dependOnClassesThat().resideInAnyPackage("io.fabric8..", "org.springframework..",
                        "dev.muster.scheduler", "dev.muster.scheduler.autoscaling..")
                .check(CORE_CLASSES);
    }

    /**
     * Control: the rules above see the core's real dependencies, so their passing is not that of an empty
     * import. The top layer does use the bottom one, and a rule forbidding it must say so.
     */
    @Test
    void theRulesSeeTheDependenciesBetweenThePackages() {
        ArchRule forbidden = noClasses().that().resideInAPackage(CORE + ".cycle..")
                .should().dependOnClassesThat().resideInAPackage(CORE + ".model..");

        assertThat(forbidden.evaluate(CORE_CLASSES).hasViolation()).isTrue();
    }
}
