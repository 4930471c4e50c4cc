package dev.muster.api;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PodGroupLabelTest {

    @Test
    void aPodJoinsTheGroupItsLabelNamesInItsNamespace() {
        Pod pod = PodFixtures.labelled(Map.of(MusterLabels.POD_GROUP, "gang"));

        assertThat(PodGroupLabel.groupName(pod)).contains("gang");
        assertThat(PodGroupLabel.groupKey(pod)).contains("ns/gang");
    }

    @Test
    void noLabelOrABlankOneJoinsNoGroup() {
        assertThat(PodGroupLabel.groupName(PodFixtures.labelled(Map.of()))).isEmpty();
        assertThat(PodGroupLabel.groupName(PodFixtures.labelled(Map.of(MusterLabels.POD_GROUP, " ")))).isEmpty();
        assertThat(PodGroupLabel.groupKey(new PodBuilder().withNewMetadata().withNamespace("ns").endMetadata().build()))
                .isEmpty();
    }

    /** As scheduler-plugins' Coscheduling reads its label, and Volcano the annotation Spark, Flink and KubeRay set. */
    @Test
    void aPodJoinsByTheCoschedulingLabelOrVolcanosGroupAnnotationToo() {
        Pod coscheduled = PodFixtures.labelled(Map.of(PodGroupLabel.COSCHEDULING_LABEL, "cosched"));
        Pod annotated = new PodBuilder().withNewMetadata().withNamespace("ns").withName("spark-driver")
                .withAnnotations(Map.of(PodGroupLabel.GROUP_NAME_ANNOTATION, "spark-pg")).endMetadata().build();

        assertThat(PodGroupLabel.groupKey(coscheduled)).contains("ns/cosched");
        assertThat(PodGroupLabel.groupKey(annotated)).contains("ns/spark-pg");
    }

    @Test
    void mustersLabelComesFirstThenTheCoschedulingLabelThenTheAnnotationAndABlankOneIsPassedOver() {
        Pod all = new PodBuilder().withNewMetadata().withNamespace("ns").withName("p")
                .withLabels(Map.of(MusterLabels.POD_GROUP, "a", PodGroupLabel.COSCHEDULING_LABEL, "b"))
                .withAnnotations(Map.of(PodGroupLabel.GROUP_NAME_ANNOTATION, "c")).endMetadata().build();
        Pod blankFirst = new PodBuilder().withNewMetadata().withNamespace("ns").withName("p")
                .withLabels(Map.of(MusterLabels.POD_GROUP, "", PodGroupLabel.COSCHEDULING_LABEL, " "))
                .withAnnotations(Map.of(PodGroupLabel.GROUP_NAME_ANNOTATION, "c")).endMetadata().build();

        assertThat(PodGroupLabel.groupName(all)).contains("a");
        assertThat(PodGroupLabel.groupName(blankFirst)).contains("c");
    }

    @Test
    void joinSetsTheLabelThatGroupNameReads() {
        Map<String, String> labels = new HashMap<>();
        PodGroupLabel.join(labels, "train");

        assertThat(PodGroupLabel.groupName(PodFixtures.labelled(labels))).contains("train");
    }

}
