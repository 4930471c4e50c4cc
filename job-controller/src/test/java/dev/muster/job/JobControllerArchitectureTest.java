package dev.muster.job;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.EvaluationResult;
import io.fabric8.kubernetes.client.CustomResource;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The job controller's arrows point one way: the I/O ({@code dev.muster.job}) uses the decisions
 * ({@code dev.muster.job.decision}) and the phase machine ({@code dev.muster.job.lifecycle}), and they use none of
 * it, no Kubernetes client or informer and no Spring, so that they stay functions of plain data.
 */
class JobControllerArchitectureTest {
    private static final String IO = "dev.muster.job";
    private static final String DECISION = "dev.muster.job.decision..";
    private static final String LIFECYCLE = "dev.muster.job.lifecycle..";
    private static final String PLUGIN = "dev.muster.job.plugin..";
    /** A Kubernetes client (its informers included), the controller plumbing's informers, Spring. */
    private static final String[] IO_LIBRARIES = {"io.fabric8.kubernetes.client..", "dev.muster.support.informer..",
            "org.springframework.."};
    /**
     * The same, but for {@link CustomResource}: the base class of the {@code crd} model types (Job, PodGroup), which
     * fabric8 keeps in its client package; a decision reading {@code PodGroup::getStatus} calls it, and talks to
     * no cluster by that.
     */
    private static final DescribedPredicate<JavaClass> IO_LIBRARY_CLASSES = resideInAnyPackage(IO_LIBRARIES)
            .and(not(equivalentTo(CustomResource.class)));

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(IO);

    @Test
    void noDecisionUsesTheIoPackage() {
        noClasses().that().resideInAnyPackage(DECISION, LIFECYCLE, PLUGIN)
                .should().dependOnClassesThat().resideInAPackage(IO)
                .because("the I/O calls the decisions, never the other way round")
                .check(MAIN);
    }

    @Test
    void noDecisionUsesAKubernetesClientAnInformerOrSpring() {
        noClasses().that().resideInAnyPackage(DECISION, LIFECYCLE)
                .should().dependOnClassesThat(IO_LIBRARY_CLASSES)
                .because("decisions are functions of plain data; reading and writing the cluster is the I/O's")
                .check(MAIN);
    }

    @Test
    void theLifecycleDoesNotUseTheDecisionsThatFireIt() {
        noClasses().that().resideInAPackage(LIFECYCLE)
                .should().dependOnClassesThat().resideInAPackage(DECISION)
                .check(MAIN);
    }

    @Test
    void theRulesCatchWhatTheIoPackageDoes() {
        // A positive control: the same predicates find the I/O package's client and its calls of the decisions,
        // so the rules above pass because the decisions are clean, not because a pattern matches nothing.
        EvaluationResult clientUse = noClasses().that().resideInAPackage(IO)
                .should().dependOnClassesThat(IO_LIBRARY_CLASSES).evaluate(MAIN);
        EvaluationResult decisionUse = noClasses().that().resideInAPackage(IO)
                .should().dependOnClassesThat().resideInAnyPackage(DECISION, LIFECYCLE).evaluate(MAIN);

        assertThat(clientUse.hasViolation()).isTrue();
        assertThat(clientUse.getFailureReport().getDetails()).anyMatch(d -> d.contains("io.fabric8.kubernetes.client.KubernetesClient"));
        assertThat(decisionUse.hasViolation()).isTrue();
        assertThat(decisionUse.getFailureReport().getDetails()).anyMatch(d -> d.contains("JobStatusDecider"));
    }
}
